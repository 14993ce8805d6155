// The block's synchronisation as the interpreter walks a kernel: barriers with the conditions
// under which only some of the block's threads reach them (divergent-barrier), and the shared
// accesses between barriers that two threads make to the same bytes (shared-race).
//
// A path carries the conditions that split the block on the way to it (env.divergent) and the
// shared accesses it made since its last block barrier (env.since_barrier). Each new shared
// access is compared with those (shared_hazards.h decides by enumerating the block's threads);
// a barrier clears them. A loop's iteration is walked once: the accesses left at the end of the
// body are compared with those its start makes before the first barrier (the next iteration's),
// with the loop's iteration atoms moved on by one.
//
// Precision first: what the enumeration cannot evaluate is not judged; a branch on data the
// threads loaded, or on a value that is uniform only for some sizes, is a runtime condition,
// which the rules report as a warning.
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

#include <algorithm>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/shared_hazards.h"

namespace kl::analyzers {

using interpreter::SharedTouch;
using interpreter::SharedTouchRef;
using interpreter::UniformTest;
using interpreter::Value;

namespace {

constexpr size_t kMaxTouchesPerPath = 48;  // older ones are dropped (a missed race, never a false one)

bool mentions_thread(const AtomTable& atoms, const Poly& p, int depth = 0) {
  if (depth > 6) return false;
  for (AtomId a : p.atoms()) {
    const Atom& atom = atoms[a];
    if (atom.kind == AtomKind::ThreadIdx) return true;
    if ((atom.kind == AtomKind::Quotient || atom.loaded) && mentions_thread(atoms, atom.inner, depth + 1)) return true;
  }
  return false;
}

// Whether the form depends on the thread index only through the warp index: quotients of
// `threadIdx.x` (plus uniform terms) by a multiple of 32, or quotients of such (`warp / 4`). The
// same value in all lanes of a warp (blockDim.x is taken to be a multiple of 32, as the model
// does everywhere).
bool warp_uniform(const AtomTable& atoms, const Poly& p, int depth = 0) {
  if (depth > 6) return false;
  bool through_warp = false;
  for (AtomId a : p.atoms()) {
    const Atom& atom = atoms[a];
    if (atom.kind == AtomKind::ThreadIdx) return false;
    if (atom.kind != AtomKind::Quotient || !mentions_thread(atoms, atom.inner)) continue;
    auto d = atom.divisor.constant_value();
    if (!d || *d <= 0) return false;
    bool lanes_of_warp = *d % 32 == 0;
    for (AtomId b : atom.inner.atoms())
      if (atoms[b].kind == AtomKind::ThreadIdx && (atoms[b].dim != 0 || atom.inner.derivative(b) != Poly::constant(1)))
        lanes_of_warp = false;
    if (!lanes_of_warp && !warp_uniform(atoms, atom.inner, depth + 1)) return false;
    through_warp = true;
  }
  return through_warp;
}

bool mentions_loaded(const AtomTable& atoms, const Poly& p) {
  for (AtomId a : p.atoms())
    if (atoms[a].loaded) return true;
  return false;
}

}  // namespace

std::optional<Value> AccessInterpreter::Impl::eval_barrier_call(const clang::CallExpr* call, Env& env) {
  BarrierCall barrier = barrier_call(*call);
  if (barrier.scope == BarrierScope::None) return std::nullopt;
  for (const clang::Expr* arg : call->arguments()) eval(arg, env);
  if (auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) eval(member->getImplicitObjectArgument(), env);
  pass_barrier(call->getSourceRange(), barrier.scope, barrier.spelling, env, barrier.aligned);
  // __syncthreads_or/and/count give every thread of the block the same answer.
  if (is_integral_type(call->getType()))
    return opaque(barrier.block_result ? Variation::Uniform : Variation::Varying, text_of(call));
  return Value::none();
}

void AccessInterpreter::Impl::pass_barrier(clang::SourceRange where, BarrierScope scope, const std::string& spelling,
                                           Env& env, bool aligned) {
  if (quiet || host_mode || env.dead) return;
  if (scope == BarrierScope::Block && barrier_out && view.is_user_location(where.getBegin())) {
    BarrierRecord r;
    MemoryAccess placed = placed_record(where);
    r.location = placed.location;
    r.function = placed.function;
    r.kernel = placed.kernel;
    r.call_chain = placed.call_chain;
    r.spelling = spelling;
    r.conditions = env.divergent;
    r.aligned = aligned;
    barrier_out->push_back(std::move(r));
  }
  // Every barrier ends the interval that races are looked for in: a warp barrier or a named one
  // orders only some threads, but judging across it would need to know which (precision first).
  env.since_barrier.clear();
  std::fill(env.loop_prefix_open.begin(), env.loop_prefix_open.end(), false);
  for (size_t i = 0; i < loop_sync.size() && i < env.loop_prefix_open.size(); ++i) loop_sync[i].barrier = true;
}

// A barrier recorded later in the walk that does not share a divergent barrier's condition is
// one the threads the condition left out reach: after the branch, in its other arm, or under a
// complementary test. (A later barrier reached only through a loop's back edge is not seen:
// then the divergent one stays a warning.)
void AccessInterpreter::Impl::mark_others_wait(std::vector<BarrierRecord>& barriers, size_t first) {
  for (size_t i = first; i < barriers.size(); ++i) {
    for (const DivergentCondition& c : barriers[i].conditions) {
      if (c.kind == DivergentCondition::Kind::AfterExit) continue;
      for (size_t j = i + 1; j < barriers.size() && !barriers[i].others_wait; ++j) {
        const auto& later = barriers[j].conditions;
        if (std::find(later.begin(), later.end(), c) == later.end()) barriers[i].others_wait = true;
      }
    }
  }
}

void AccessInterpreter::Impl::leave_frame(const Env& env) {
  if (frames.empty()) return;
  Frame& f = frames.back();
  if (!f.left) {
    f.left = true;
    f.touches_left = env.since_barrier;
    f.prefix_open_left = env.loop_prefix_open;
    return;
  }
  interpreter::merge_unsynchronised(f.touches_left, f.prefix_open_left, env.since_barrier, env.loop_prefix_open);
}

void AccessInterpreter::Impl::note_divergence(const clang::Expr* cond, const Value& value,
                                              DivergentCondition::Kind kind, const Env& before, Env& path,
                                              bool truth) {
  if (quiet || host_mode || !barrier_out || !cond) return;
  if (variation_of(value) == Variation::Uniform) return;
  DivergentCondition c;
  c.kind = kind;
  c.location = view.location_of(cond->getSourceRange());
  c.text = text_of(cond, 80);
  // The thread-index conditions `assume` added on this path: evaluable ones say whether the
  // block splits. (The path's earlier guards stay: the threads on the path are those that pass
  // them all.)
  bool added = path.guards.size() > before.guards.size();
  // What makes it differ: a thread index, or data the threads loaded.
  bool thread = added || c.text.find("threadIdx") != std::string::npos || c.text.find("thread_rank") != std::string::npos;
  bool data = path.data_branch && !before.data_branch;
  // A comparison's value is a fresh atom: its two sides say what it depends on.
  std::vector<Value> parts{value};
  if (auto* rel = llvm::dyn_cast<clang::BinaryOperator>(cond->IgnoreParenImpCasts()); rel && rel->isComparisonOp()) {
    auto [l, r] = comparison_sides(rel, before);
    parts.push_back(std::move(l));
    parts.push_back(std::move(r));
  }
  for (const Value& v : parts) {
    if (v.kind != Value::Kind::Int) continue;
    thread = thread || mentions_thread(atoms, v.form);
    data = data || mentions_loaded(atoms, v.form);
  }
  // A varying floating-point operand is data: nothing but loaded values and what is computed
  // from them is a float the threads disagree on (`if (x > 0.5f)` with x = in[i]).
  if (auto* rel = llvm::dyn_cast<clang::BinaryOperator>(cond->IgnoreParenImpCasts()); rel && rel->isComparisonOp())
    for (const clang::Expr* side : {rel->getLHS(), rel->getRHS()})
      if (side->IgnoreParenImpCasts()->getType()->isRealFloatingType()) data = data || !thread;
  c.varies_with = thread ? "the thread index" : (data ? "data each thread loaded" : "a value computed per thread");
  c.data = data && !thread;
  c.runtime = true;
  c.lanes_known = added && !c.data;
  if (added && !c.data) {
    c.whole_warps = true;
    for (size_t i = before.guards.size(); i < path.guards.size(); ++i)
      c.whole_warps = c.whole_warps && warp_uniform(atoms, path.guards[i].form);
  }
  c.evident = thread || data;
  c.truth = truth;
  if (kind == DivergentCondition::Kind::Branch && added && !c.data) {
    bool assumed = false;
    std::optional<bool> split = guards_split_block(hazard_domain(path.facts), path.guards, assumed);
    if (split && !*split) return;  // every thread of the block agrees
    if (split && !assumed) c.runtime = false;
    if (split && assumed) c.runtime_text = "for blocks larger than the condition's bound";
  }
  if (c.runtime && c.runtime_text.empty())
    c.runtime_text = c.data || !thread ? "when the threads' values differ" : "for the sizes at which the threads disagree";
  if (std::find(path.divergent.begin(), path.divergent.end(), c) == path.divergent.end()) path.divergent.push_back(c);
}

void AccessInterpreter::Impl::note_uniform_test(const clang::Expr* cond, const Value& value, const Env& before, Env& t,
                                                Env& f) {
  if (quiet || host_mode || !hazard_out || !cond || variation_of(value) != Variation::Uniform) return;
  UniformTest test;
  if (auto* rel = llvm::dyn_cast<clang::BinaryOperator>(cond->IgnoreParenImpCasts()); rel && rel->isComparisonOp()) {
    auto [l, r] = comparison_sides(rel, before);
    if (l.kind != Value::Kind::Int || r.kind != Value::Kind::Int) return;
    auto d = l.form.minus(r.form);
    if (!d) return;
    test.difference = std::move(*d);
    test.op = rel->getOpcode();
  } else if (value.kind == Value::Kind::Int) {
    test.difference = value.form;
    test.op = clang::BO_NE;
  } else {
    return;
  }
  if (test.difference.is_constant()) return;
  t.uniform_tests.push_back(test);
  test.truth = false;
  f.uniform_tests.push_back(std::move(test));
}

void AccessInterpreter::Impl::note_exit(const clang::Expr* cond, Env& env) {
  if (quiet || host_mode || !barrier_out || !cond) return;
  Location where = view.location_of(cond->getSourceRange());
  for (auto& c : env.divergent)
    if (c.kind == DivergentCondition::Kind::Branch && c.location == where) c.kind = DivergentCondition::Kind::AfterExit;
}

std::pair<Value, Value> AccessInterpreter::Impl::comparison_sides(const clang::BinaryOperator* rel, const Env& env) {
  Env probe = env;
  ++quiet;
  Value l = eval(rel->getLHS(), probe);
  Value r = eval(rel->getRHS(), probe);
  --quiet;
  return {std::move(l), std::move(r)};
}

HazardDomain AccessInterpreter::Impl::hazard_domain(const PathFacts& facts) const {
  HazardDomain domain;
  domain.atoms = &atoms;
  domain.facts = &facts;
  domain.block = block;
  domain.trip_counts = &trip_counts;
  domain.sequences = &sequences;
  return domain;
}

void AccessInterpreter::Impl::touch_shared(const MemoryAccess& m, int base_index, const Poly& offset, uint32_t width,
                                           Env& env) {
  if (quiet || host_mode || !hazard_out || env.dead) return;
  auto touch = std::make_shared<SharedTouch>();
  touch->serial = ++touch_serial;
  touch->base = base_index;
  touch->offset = offset;
  touch->width = width;
  touch->store = m.is_store;
  touch->atomic = m.is_atomic;
  touch->guards = env.guards;
  touch->data_branch = env.data_branch || env.caller_data_branch;
  touch->uniform_tests = env.uniform_tests;
  // A branch on the thread index that no guard describes (`lane == 0 || lane == 2`): which
  // threads make the access is unknown.
  for (const DivergentCondition& c : env.divergent)
    if (c.kind != DivergentCondition::Kind::LoopTrip && !c.lanes_known) touch->data_branch = true;
  // The loops around the access run it only where their conditions hold (the walk does not assume
  // a loop's condition on its body: the access verdicts judge every lane of the request).
  for (const LoopSync& loop : loop_sync) {
    touch->guards.insert(touch->guards.end(), loop.guards.begin(), loop.guards.end());
    touch->data_branch = touch->data_branch || loop.unjudged_condition;
  }
  touch->location = m.location;
  touch->function = m.function;
  touch->call_chain = m.call_chain;
  for (const SharedTouchRef& earlier : env.since_barrier) compare_touches(*earlier, *touch, env, nullptr);
  for (size_t i = 0; i < loop_sync.size() && i < env.loop_prefix_open.size(); ++i)
    if (env.loop_prefix_open[i] && loop_sync[i].prefix.size() < kMaxTouchesPerPath) loop_sync[i].prefix.push_back(touch);
  if (env.since_barrier.size() >= kMaxTouchesPerPath) env.since_barrier.erase(env.since_barrier.begin());
  env.since_barrier.push_back(std::move(touch));
}

void AccessInterpreter::Impl::compare_touches(const SharedTouch& first, const SharedTouch& second, const Env& env,
                                              const LoopSync* carried_by) {
  if (first.base != second.base || (!first.store && !second.store)) return;
  // Atomics order themselves, and racecheck does not count an atomic against a plain access
  // either (a spin on a counter others bump): left out.
  if (first.atomic || second.atomic) return;
  if (first.data_branch || second.data_branch) return;  // which threads made them is unknown
  // Made under opposite outcomes of one block-uniform test: never on one path.
  for (const UniformTest& u : first.uniform_tests)
    for (const UniformTest& v : second.uniform_tests)
      if (u.op == v.op && u.truth != v.truth && u.difference == v.difference) return;
  if (!hazards_seen.insert({first.serial, second.serial}).second) return;
  HazardDomain domain = hazard_domain(env.facts);
  SharedTouchForm a{first.offset, first.width, first.guards};
  SharedTouchForm b{second.offset, second.width, second.guards};
  if (carried_by) {
    // The second access is the next iteration's: its iteration atoms are one further on, and so
    // are the loop's geometric variables.
    for (auto& [g, seq] : std::map<AtomId, LoopSequence>(sequences)) {
      if (!carried_by->induction.count(seq.iteration) || seq.shift != 0) continue;
      AtomId next = next_in_sequence(g);
      auto moved = [&](Poly& p) {
        if (!p.mentions(g)) return true;
        auto q = p.substituted(g, Poly::atom(next));
        if (q) p = std::move(*q);
        return q.has_value();
      };
      if (!moved(b.offset)) return;
      for (auto& guard : b.guards)
        if (!moved(guard.form)) return;
    }
    for (AtomId k : carried_by->induction) {
      auto moved = [&](Poly& p) {
        if (!p.mentions(k)) return true;
        auto next = p.substituted(k, Poly::atom(k).plus(Poly::constant(1)).value_or(Poly::atom(k)));
        if (!next) return false;
        p = std::move(*next);
        return true;
      };
      if (!moved(b.offset)) return;
      for (auto& g : b.guards)
        if (!moved(g.form)) return;
    }
  }
  std::optional<HazardWitness> w = find_shared_hazard(domain, a, b);
  if (!w) return;
  SharedHazard h;
  h.first = first.location;
  h.second = second.location;
  h.first_is_store = first.store;
  h.second_is_store = second.store;
  h.base_name = bases[first.base].name;
  h.function = second.function;
  h.kernel = kernel_name;
  h.call_chain = second.call_chain;
  h.loop_carried = carried_by != nullptr;
  if (carried_by) h.loop = carried_by->where;
  for (int d = 0; d < 3; ++d) {
    h.first_thread[d] = w->first_thread[d];
    h.second_thread[d] = w->second_thread[d];
  }
  h.byte = w->byte;
  h.block_assumed = w->block_assumed;
  BlockShape shape;
  shape.x = w->block[0];
  if (w->block[1] > 1 || w->block[2] > 1) shape.y = w->block[1];
  if (w->block[2] > 1) shape.z = w->block[2];
  h.block_shape = shape.describe();
  h.needs_iterations = w->needs_iterations || carried_by != nullptr;
  h.same_warp = w->same_warp;
  h.fix_safe = !carried_by && first.call_chain.empty() && second.call_chain.empty() && env.divergent.empty() &&
               second.guards.empty() && !env.data_branch;
  hazard_out->push_back(std::move(h));
}

void AccessInterpreter::Impl::note_trip_counts(const clang::Expr* cond, const Env& entry, size_t first_new_atom) {
  auto* rel = llvm::dyn_cast_or_null<clang::BinaryOperator>(cond ? cond->IgnoreParenImpCasts() : nullptr);
  if (!rel || !rel->isComparisonOp() || host_mode) return;
  auto [l, r] = comparison_sides(rel, entry);
  if (l.kind != Value::Kind::Int || r.kind != Value::Kind::Int) return;
  auto d0 = l.form.minus(r.form);
  if (!d0) return;
  auto d = with_launch_constants(atoms, with_known_values(*d0, entry.facts));
  if (!d) return;
  for (AtomId k = static_cast<AtomId>(first_new_atom); k < atoms.size(); ++k) {
    if (atoms[k].kind != AtomKind::Induction || !d->mentions(k)) continue;
    Poly a = d->derivative(k);
    auto rest = d->minus(a.times(Poly::atom(k)).value_or(Poly()));
    auto av = a.constant_value();
    if (!av || *av == 0 || !rest || !rest->is_constant()) continue;
    int64_t c = rest->constant_term();  // the condition is `av * k + c  op  0`
    int64_t step = *av;
    std::optional<int64_t> trips;
    auto ceil_div = [](int64_t x, int64_t y) { return x <= 0 ? int64_t{0} : (x + y - 1) / y; };
    switch (rel->getOpcode()) {
      case clang::BO_LT: if (step > 0) trips = ceil_div(-c, step); break;
      case clang::BO_LE: if (step > 0) trips = -c < 0 ? 0 : (-c) / step + 1; break;
      case clang::BO_GT: if (step < 0) trips = ceil_div(c, -step); break;
      case clang::BO_GE: if (step < 0) trips = c < 0 ? 0 : c / (-step) + 1; break;
      case clang::BO_NE: if ((-c) % step == 0 && -c / step >= 0) trips = -c / step; break;
      default: break;
    }
    if (trips) trip_counts[k] = *trips;
  }
}

void AccessInterpreter::Impl::note_inclusive_bound(const clang::Expr* cond, const Env& entry,
                                                  size_t first_new_atom) {
  auto* rel = llvm::dyn_cast_or_null<clang::BinaryOperator>(cond ? cond->IgnoreParenImpCasts() : nullptr);
  if (!rel || rel->getOpcode() != clang::BO_LE || host_mode) return;
  auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(rel->getLHS()->IgnoreParenImpCasts());
  if (!ref) return;
  auto [l, r] = comparison_sides(rel, entry);
  if (l.kind != Value::Kind::Int || r.kind != Value::Kind::Int) return;
  auto d = l.form.minus(r.form);  // `v - bound`, with v = start + k
  if (!d) return;
  for (AtomId k = static_cast<AtomId>(first_new_atom); k < atoms.size(); ++k) {
    if (atoms[k].kind != AtomKind::Induction || !d->mentions(k) || d->derivative(k).constant_value() != 1) continue;
    auto rest = d->minus(Poly::atom(k));  // start - bound
    auto last = rest ? rest->scaled(-1) : std::nullopt;
    if (!last || last->mentions(k)) continue;
    inclusive_bounds[k] = {r.form, *last, entry.conditioned, ref->getDecl()->getNameAsString()};
  }
}

void AccessInterpreter::Impl::note_loop_divergence(const clang::Expr* cond, const Value& cond_value, Env& body_env) {
  if (quiet || host_mode || !barrier_out || !cond || variation_of(cond_value) == Variation::Uniform) return;
  Env before = body_env;
  note_divergence(cond, cond_value, DivergentCondition::Kind::LoopTrip, before, body_env);
  if (body_env.divergent.size() == before.divergent.size()) return;
  DivergentCondition& c = body_env.divergent.back();
  c.runtime = true;
  // `i < n` with i = threadIdx.x + k * S and S the block's width: every thread runs
  // ceil((n - threadIdx.x) / S) iterations, the same for all exactly when n % S == 0.
  auto* rel = llvm::dyn_cast<clang::BinaryOperator>(cond->IgnoreParenImpCasts());
  if (!rel || (rel->getOpcode() != clang::BO_LT && rel->getOpcode() != clang::BO_GT)) return;
  auto [l, r] = comparison_sides(rel, before);
  if (l.kind != Value::Kind::Int || r.kind != Value::Kind::Int) return;
  auto d0 = rel->getOpcode() == clang::BO_LT ? l.form.minus(r.form) : r.form.minus(l.form);
  if (!d0) return;
  auto d = with_launch_constants(atoms, with_known_values(*d0, before.facts));
  if (!d || thread[0] == UINT32_MAX || !d->mentions(thread[0]) || d->derivative(thread[0]) != Poly::constant(1)) return;
  Poly rest = *d;
  std::optional<int64_t> stride;
  for (const auto& t : d->terms()) {
    if (t.atoms.size() != 1) continue;
    AtomId k = t.atoms[0];
    if (atoms[k].kind != AtomKind::Induction) continue;
    Poly step = d->derivative(k);
    auto known_width = block.x ? std::optional<int64_t>(*block.x) : std::nullopt;
    if (step == Poly::atom(block_dim[0]) && known_width) stride = *known_width;
    else if (step == Poly::atom(block_dim[0])) stride = -1;  // the block's width, unknown
    else if (auto s = step.constant_value(); s && known_width && *s == *known_width) stride = *s;
    if (!stride) return;
    rest = rest.minus(Poly::atom(k).times(step).value_or(Poly())).value_or(rest);
  }
  if (!stride) return;
  rest = rest.minus(Poly::atom(thread[0])).value_or(rest);
  if (auto n = rest.constant_value(); n && *stride > 0) {
    if ((-*n) % *stride == 0) {
      body_env.divergent.pop_back();  // a whole number of rounds for every thread
      return;
    }
    c.runtime = false;
    c.runtime_text = "";
    return;
  }
  std::string bound = text_of(rel->getOpcode() == clang::BO_LT ? rel->getRHS() : rel->getLHS(), 40);
  c.runtime_text = "when `" + bound + "` is not a multiple of the block's width";
}

void AccessInterpreter::Impl::note_sequences(const clang::Expr* cond, const Env& entry, size_t first_new_atom) {
  auto* rel = llvm::dyn_cast_or_null<clang::BinaryOperator>(cond ? cond->IgnoreParenImpCasts() : nullptr);
  if (geometric_candidates.empty() || host_mode || !rel || !rel->isComparisonOp()) return;
  auto [l, r] = comparison_sides(rel, entry);
  if (l.kind != Value::Kind::Int || r.kind != Value::Kind::Int) return;
  auto d0 = l.form.minus(r.form);
  auto d = d0 ? with_launch_constants(atoms, with_known_values(*d0, entry.facts)) : std::nullopt;
  if (!d) return;
  for (const auto& [g, step] : geometric_candidates) {
    if (!d->mentions(g)) continue;
    std::vector<int64_t> values;
    int64_t v = step.start;
    for (int i = 0; i < 32; ++i) {
      auto at = d->substituted(g, Poly::constant(v));
      auto c = at ? at->constant_value() : std::nullopt;
      if (!c) return;  // the condition depends on more than the variable
      bool holds = false;
      switch (rel->getOpcode()) {
        case clang::BO_LT: holds = *c < 0; break;
        case clang::BO_LE: holds = *c <= 0; break;
        case clang::BO_GT: holds = *c > 0; break;
        case clang::BO_GE: holds = *c >= 0; break;
        case clang::BO_NE: holds = *c != 0; break;
        default: return;
      }
      if (!holds) break;
      values.push_back(v);
      int64_t next = v;
      switch (step.op) {
        case clang::BO_ShrAssign: next = step.factor < 63 ? v >> step.factor : 0; break;
        case clang::BO_DivAssign: next = v / step.factor; break;
        case clang::BO_ShlAssign: next = step.factor < 31 && v < (int64_t{1} << 31) ? v << step.factor : v; break;
        case clang::BO_MulAssign: next = v < (int64_t{1} << 31) ? v * step.factor : v; break;
        default: break;
      }
      if (next == v) break;
      v = next;
    }
    if (values.empty()) continue;
    // The loop's iteration: an arithmetic variable's atom when the loop has one (both step
    // together), else a new one.
    std::optional<AtomId> iteration;
    for (AtomId k = static_cast<AtomId>(first_new_atom); k < atoms.size() && !iteration; ++k)
      if (atoms[k].kind == AtomKind::Induction) iteration = k;
    if (!iteration) {
      Atom k;
      k.kind = AtomKind::Induction;
      k.name = atoms[g].name + "'s iteration";
      iteration = atoms.add(k);
    }
    int64_t trips = static_cast<int64_t>(values.size());
    if (auto known = trip_counts.find(*iteration); known != trip_counts.end()) trips = std::min(trips, known->second);
    trip_counts[*iteration] = trips;
    sequences[g] = LoopSequence{*iteration, std::move(values), 0};
  }
}

AtomId AccessInterpreter::Impl::next_in_sequence(AtomId g) {
  if (auto it = next_of_sequence.find(g); it != next_of_sequence.end()) return it->second;
  Atom next = atoms[g];
  next.name = atoms[g].name + " (next iteration)";
  AtomId id = atoms.add(next);
  LoopSequence seq = sequences.at(g);
  seq.shift += 1;
  sequences[id] = std::move(seq);
  return next_of_sequence[g] = id;
}

void AccessInterpreter::Impl::begin_loop_sync(const clang::Stmt* loop, size_t first_new_atom, const clang::Expr* cond,
                                              const Value& cond_value, Env& body_env) {
  note_loop_divergence(cond, cond_value, body_env);
  LoopSync s;
  s.where = view.location_of(loop->getSourceRange());
  if (cond && variation_of(cond_value) != Variation::Uniform) {
    Env assumed = body_env;
    ++quiet;
    assume(cond, true, assumed);
    --quiet;
    s.guards.assign(assumed.guards.begin() + static_cast<std::ptrdiff_t>(std::min(body_env.guards.size(), assumed.guards.size())),
                    assumed.guards.end());
    s.unjudged_condition = s.guards.empty();
  }
  for (AtomId k = static_cast<AtomId>(first_new_atom); k < atoms.size(); ++k)
    if (atoms[k].kind == AtomKind::Induction) s.induction.insert(k);
  loop_sync.push_back(std::move(s));
  body_env.loop_prefix_open.resize(loop_sync.size() - 1, false);
  body_env.loop_prefix_open.push_back(true);
}

void AccessInterpreter::Impl::end_loop_sync(const Env& body_end, Env& after) {
  if (loop_sync.empty()) return;
  LoopSync done = std::move(loop_sync.back());
  loop_sync.pop_back();
  bool runs_twice = true;
  for (AtomId k : done.induction)
    if (auto it = trip_counts.find(k); it != trip_counts.end() && it->second < 2) runs_twice = false;
  // The end of one iteration against the start of the next: only when a barrier separates them
  // within the body (without one, every pair was compared as the body was walked) is the back
  // edge the only unsynchronised way between them.
  if (runs_twice && !body_end.dead && hazard_out) {
    for (const SharedTouchRef& tail : body_end.since_barrier)
      for (const SharedTouchRef& head : done.prefix) compare_touches(*tail, *head, body_end, &done);
  }
  // After the loop (assumed to have run): what the last iteration left unsynchronised. With a
  // barrier in the body, an access that names the iteration is the last iteration's, which the
  // enumeration cannot tell from the others: left out.
  after.since_barrier.clear();
  for (const SharedTouchRef& t : body_end.since_barrier) {
    bool names_iteration = std::any_of(t->offset.terms().begin(), t->offset.terms().end(), [&](const Term& term) {
      return std::any_of(term.atoms.begin(), term.atoms.end(), [&](AtomId a) {
        auto seq = sequences.find(a);
        return done.induction.count(a) > 0 || (seq != sequences.end() && done.induction.count(seq->second.iteration) > 0);
      });
    });
    if (!(done.barrier && names_iteration)) after.since_barrier.push_back(t);
  }
  after.loop_prefix_open = body_end.loop_prefix_open;
  after.loop_prefix_open.resize(loop_sync.size(), false);
  if (!loop_sync.empty() && done.barrier) loop_sync.back().barrier = true;
}

}  // namespace kl::analyzers
