#include "analyzers/model/access_values.h"

#include <algorithm>

namespace kl::analyzers::interpreter {

Variation variation_of(const AtomTable& atoms, const Value& v) {
  switch (v.kind) {
    case Value::Kind::Int: return atoms.variation(v.form);
    case Value::Kind::Pointer: return v.base < 0 ? Variation::Varying : atoms.variation(v.form);
    case Value::Kind::None: return v.variation;
    default: return Variation::Uniform;
  }
}

Variation memory_variation(const AtomTable& atoms, const Value& address) {
  if (address.base < 0) return Variation::Varying;
  Variation v = atoms.variation(address.form);
  return v == Variation::Uniform ? Variation::Uniform : Variation::Varying;
}

Value loaded_integer(AtomTable& atoms, const Value& address, const std::string& name) {
  Variation v = address.base < 0 ? Variation::Varying : atoms.variation(address.form);
  if (v != Variation::Piecewise && v != Variation::Lane) return opaque_value(atoms, memory_variation(atoms, address), name, Congruence::unknown(), false, true);
  Atom a;
  a.kind = AtomKind::Opaque;
  a.loaded = true;
  a.variation = Variation::Piecewise;
  a.inner = address.form;
  a.name = name.empty() ? "<value>" : name;
  return Value::integer(Poly::atom(atoms.add(a)));
}

Value opaque_value(AtomTable& atoms, Variation v, const std::string& name, Congruence c, bool parameter_like,
                   bool loaded) {
  Atom a;
  a.kind = AtomKind::Opaque;
  a.loaded = loaded && (v == Variation::Lane || v == Variation::Piecewise || v == Variation::Varying);
  a.variation = v == Variation::Lane || v == Variation::Piecewise ? Variation::Varying : v;
  a.congruence = c;
  a.name = name.empty() ? "<value>" : name;
  a.parameter_like = parameter_like;
  return Value::integer(Poly::atom(atoms.add(a)));
}

Value join_values(AtomTable& atoms, const Value& a, const Value& b) {
  if (a == b) return a;
  if (a.kind == Value::Kind::Int && b.kind == Value::Kind::Int)
    return Value::integer(join_forms(atoms, a.form, b.form));
  if (a.kind == Value::Kind::Pointer && b.kind == Value::Kind::Pointer && a.base == b.base) {
    Value out = a;
    out.form = join_forms(atoms, a.form, b.form);
    out.widened = a.widened || b.widened;
    out.reference = a.reference && b.reference;
    return out;
  }
  if (a.kind == Value::Kind::Pointer && b.kind == Value::Kind::Pointer) {
    Value out = Value::pointer(-1, Poly());
    return out;
  }
  if (a.kind == Value::Kind::Dim3 && b.kind == Value::Kind::Dim3) {
    Value out = a;
    for (int d = 0; d < 3; ++d) out.dims[d] = join_forms(atoms, a.dims[d], b.dims[d]);
    return out;
  }
  Variation v = max_variation(variation_of(atoms, a), variation_of(atoms, b));
  if (a.kind == Value::Kind::Int || b.kind == Value::Kind::Int) return opaque_value(atoms, v, "");
  return Value::none(v);
}

Poly join_forms(AtomTable& atoms, const Poly& a, const Poly& b) {
  auto thread_part = [&](AtomId id) { return atoms[id].variation != Variation::Uniform; };
  auto [ta, ua] = a.split(thread_part);
  auto [tb, ub] = b.split(thread_part);
  Congruence c = Congruence::join(congruence_of(atoms, ua), congruence_of(atoms, ub));
  if (ta == tb) {
    Atom phi;
    phi.kind = AtomKind::Opaque;
    phi.variation = Variation::Uniform;
    phi.congruence = c;
    phi.name = "<joined>";
    if (auto sum = ta.plus(Poly::atom(atoms.add(phi)))) return *sum;
  }
  Atom phi;
  phi.kind = AtomKind::Opaque;
  phi.variation = max_variation(atoms.variation(a), atoms.variation(b)) == Variation::Uniform ? Variation::Uniform
                                                                                              : Variation::Varying;
  phi.congruence = Congruence::join(congruence_of(atoms, a), congruence_of(atoms, b));
  phi.name = "<joined>";
  return Poly::atom(atoms.add(phi));
}

void merge_unsynchronised(std::vector<SharedTouchRef>& touches, std::vector<bool>& prefix_open,
                          const std::vector<SharedTouchRef>& more_touches, const std::vector<bool>& more_prefix_open) {
  for (const auto& t : more_touches) {
    bool seen = std::any_of(touches.begin(), touches.end(),
                            [&](const SharedTouchRef& u) { return u->serial == t->serial; });
    if (!seen) touches.push_back(t);
  }
  prefix_open.resize(std::max(prefix_open.size(), more_prefix_open.size()), false);
  for (size_t i = 0; i < more_prefix_open.size(); ++i) prefix_open[i] = prefix_open[i] || more_prefix_open[i];
}

Env join(AtomTable& atoms, const Env& a, const Env& b) {
  if (a.dead) return b;
  if (b.dead) return a;
  Env out;
  for (const auto& [var, va] : a.vars) {
    auto it = b.vars.find(var);
    if (it == b.vars.end()) continue;
    out.vars[var] = join_values(atoms, va, it->second);
  }
  out.facts = PathFacts::join(a.facts, b.facts);
  out.data_branch = a.data_branch || b.data_branch;
  out.conditioned = a.conditioned | b.conditioned;
  out.caller_data_branch = a.caller_data_branch || b.caller_data_branch;
  for (const auto& g : a.guards) {
    bool both = std::any_of(b.guards.begin(), b.guards.end(),
                            [&](const LaneGuard& h) { return h.op == g.op && h.form == g.form; });
    if (both) out.guards.push_back(g);
  }
  for (const auto& u : a.uniform_tests)
    if (std::find(b.uniform_tests.begin(), b.uniform_tests.end(), u) != b.uniform_tests.end())
      out.uniform_tests.push_back(u);
  for (const auto& c : a.divergent)
    if (std::find(b.divergent.begin(), b.divergent.end(), c) != b.divergent.end()) out.divergent.push_back(c);
  out.since_barrier = a.since_barrier;
  out.loop_prefix_open = a.loop_prefix_open;
  merge_unsynchronised(out.since_barrier, out.loop_prefix_open, b.since_barrier, b.loop_prefix_open);
  return out;
}

}  // namespace kl::analyzers::interpreter
