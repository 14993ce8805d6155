#include "analyzers/model/shared_hazards.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace kl::analyzers {
namespace {

using Wide = WideInt;

// A block the launches do not fix: smaller than any such kernel is launched with, so that a
// witness found in it exists in the real block too (8 threads when only x is used, 4 x 4 x 2
// when y or z are). Measured on public code: an assumed 32-wide block paired threads 16 and 0 of
// Rodinia's 16-thread blocks.
constexpr uint32_t kAssumedLinearBlock = 8;
constexpr uint32_t kAssumedBlock[3] = {4, 4, 2};
// Whether a condition splits a block the launches do not fix is asked of the largest block
// (1,024 threads): a test no such block splits is uniform for every launch.
constexpr uint32_t kLargestLinearBlock = 1024;
constexpr uint32_t kLargestBlock[3] = {32, 16, 2};
constexpr int64_t kMaxIterations = 8;        // per loop, enumerated from the first
constexpr size_t kMaxEvaluations = 400000;   // per pair


// Which atoms the enumeration gives values to.
class Classifier {
 public:
  explicit Classifier(const HazardDomain& d) : d_(d), atoms_(*d.atoms) {}

  // Enumerated or known: a thread index, a block dimension, a loop iteration with a known trip
  // count, a known value, or a quotient of such forms.
  bool evaluable(AtomId a) const {
    if (known_value(a)) return true;
    if (const LoopSequence* s = sequence(a)) return d_.trip_counts && d_.trip_counts->count(s->iteration) > 0;
    const Atom& atom = atoms_[a];
    switch (atom.kind) {
      case AtomKind::ThreadIdx:
      case AtomKind::BlockDim: return true;
      case AtomKind::Induction: return d_.trip_counts && d_.trip_counts->count(a) > 0;
      case AtomKind::Quotient: return all_evaluable(atom.inner) && all_evaluable(atom.divisor);
      default: return false;
    }
  }
  bool all_evaluable(const Poly& p) const {
    for (AtomId a : p.atoms())
      if (!evaluable(a)) return false;
    return true;
  }
  bool varies(AtomId a) const { return atoms_[a].variation != Variation::Uniform || atoms_[a].thread_private; }
  const LoopSequence* sequence(AtomId a) const {
    if (!d_.sequences) return nullptr;
    auto it = d_.sequences->find(a);
    return it == d_.sequences->end() ? nullptr : &it->second;
  }
  std::optional<int64_t> known_value(AtomId a) const {
    if (d_.facts) {
      if (auto it = d_.facts->values.find(a); it != d_.facts->values.end()) return it->second;
    }
    return launch_constant(atoms_[a]);
  }
  // The thread-index and iteration atoms a form depends on, through quotients too.
  void free_atoms(const Poly& p, std::set<AtomId>& out) const {
    for (AtomId a : p.atoms()) {
      if (known_value(a)) continue;
      if (const LoopSequence* s = sequence(a)) {
        out.insert(s->iteration);
        continue;
      }
      const Atom& atom = atoms_[a];
      if (atom.kind == AtomKind::ThreadIdx || atom.kind == AtomKind::Induction || atom.kind == AtomKind::BlockDim)
        out.insert(a);
      if (atom.kind == AtomKind::Quotient) {
        free_atoms(atom.inner, out);
        free_atoms(atom.divisor, out);
      }
    }
  }

 private:
  const HazardDomain& d_;
  const AtomTable& atoms_;
};

// Values for the free atoms, and evaluation of forms under them.
class Evaluator {
 public:
  Evaluator(const AtomTable& atoms, const Classifier& c) : atoms_(atoms), c_(c) {}
  void set(AtomId a, int64_t v) { values_[a] = v; }

  std::optional<Wide> eval(const Poly& p) const {
    return evaluate(p, [this](AtomId a) { return value(a); });
  }

 private:
  std::optional<Wide> value(AtomId a) const {
    if (auto it = values_.find(a); it != values_.end()) return Wide(it->second);
    if (auto k = c_.known_value(a)) return Wide(*k);
    if (const LoopSequence* s = c_.sequence(a)) {
      auto i = values_.find(s->iteration);
      if (i == values_.end()) return std::nullopt;
      int64_t index = i->second + s->shift;
      if (index < 0 || index >= static_cast<int64_t>(s->values.size())) return std::nullopt;  // past the loop's end
      return Wide(s->values[static_cast<size_t>(index)]);
    }
    const Atom& atom = atoms_[a];
    if (atom.kind != AtomKind::Quotient) return std::nullopt;
    auto inner = eval(atom.inner);
    auto divisor = eval(atom.divisor);
    if (!inner || !divisor || *divisor == 0) return std::nullopt;
    return floor_div(*inner, *divisor);
  }

  const AtomTable& atoms_;
  const Classifier& c_;
  std::unordered_map<AtomId, int64_t> values_;
};

// The terms of `p` the enumeration cannot evaluate; nothing when one of them also depends on
// the thread index or an enumerated iteration (`tid * ld`: the distance between threads is a
// runtime value).
std::optional<Poly> symbolic_part(const Classifier& c, const Poly& p, Poly& numeric) {
  auto [symbolic, rest] = p.split([&](AtomId a) { return !c.evaluable(a); });
  // Equal symbolic parts cancel only when every thread has the same value for them: a per-thread
  // value (loaded data, `tid * ld`) differs between the two threads compared.
  for (const auto& t : symbolic.terms())
    for (AtomId a : t.atoms)
      if ((c.evaluable(a) && !c.known_value(a)) || c.varies(a)) return std::nullopt;
  numeric = rest;
  return symbolic;
}

bool guards_hold(const Evaluator& ev, const std::vector<LaneGuard>& guards) {
  for (const auto& g : guards) {
    auto v = ev.eval(g.form);
    if (!v) return false;
    bool ok = true;
    switch (g.op) {
      case LaneGuard::Op::Eq: ok = *v == 0; break;
      case LaneGuard::Op::Ne: ok = *v != 0; break;
      case LaneGuard::Op::Lt: ok = *v < 0; break;
      case LaneGuard::Op::Le: ok = *v <= 0; break;
    }
    if (!ok) return false;
  }
  return true;
}

// Odometer over the values of a list of atoms, each in [0, limit).
struct Odometer {
  std::vector<AtomId> atoms;
  std::vector<int64_t> limits;
  std::vector<int64_t> digits;
  void reset() { digits.assign(atoms.size(), 0); }
  bool next() {
    for (size_t i = 0; i < digits.size(); ++i) {
      if (++digits[i] < limits[i]) return true;
      digits[i] = 0;
    }
    return false;
  }
  void apply(Evaluator& ev) const {
    for (size_t i = 0; i < atoms.size(); ++i) ev.set(atoms[i], digits[i]);
  }
  bool past_first() const {
    return std::any_of(digits.begin(), digits.end(), [](int64_t d) { return d > 0; });
  }
};

// The block the enumeration walks: the launches' dimensions, or assumed ones for the
// dimensions the forms use.
struct ThreadBlock {
  AtomId thread[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  AtomId block_dim[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  uint32_t size[3] = {1, 1, 1};
  bool assumed = false;

  int64_t threads() const { return int64_t{size[0]} * size[1] * size[2]; }
  // Threads along x fastest, as the hardware numbers them.
  void coordinates(int64_t id, int64_t out[3]) const {
    out[0] = id % size[0];
    out[1] = (id / size[0]) % size[1];
    out[2] = id / (int64_t{size[0]} * size[1]);
  }
  void set_block_dims(Evaluator& ev) const {
    for (int d = 0; d < 3; ++d)
      if (block_dim[d] != UINT32_MAX) ev.set(block_dim[d], size[d]);
  }
  void set_thread(Evaluator& ev, int64_t id) const {
    int64_t t[3];
    coordinates(id, t);
    for (int d = 0; d < 3; ++d)
      if (thread[d] != UINT32_MAX) ev.set(thread[d], t[d]);
  }
};

ThreadBlock thread_block(const HazardDomain& domain, const std::set<AtomId>& free, bool largest = false) {
  ThreadBlock tb;
  for (AtomId a : free) {
    const Atom& atom = (*domain.atoms)[a];
    if (atom.kind == AtomKind::ThreadIdx) tb.thread[atom.dim] = a;
    if (atom.kind == AtomKind::BlockDim) tb.block_dim[atom.dim] = a;
  }
  bool multi_dimensional = tb.thread[1] != UINT32_MAX || tb.thread[2] != UINT32_MAX ||
                           tb.block_dim[1] != UINT32_MAX || tb.block_dim[2] != UINT32_MAX;
  for (int d = 0; d < 3; ++d) {
    const std::optional<uint32_t>& known = d == 0 ? domain.block.x : d == 1 ? domain.block.y : domain.block.z;
    bool used = tb.thread[d] != UINT32_MAX || tb.block_dim[d] != UINT32_MAX;
    if (known) tb.size[d] = *known;
    else if (used) {
      if (largest) tb.size[d] = d == 0 && !multi_dimensional ? kLargestLinearBlock : kLargestBlock[d];
      else tb.size[d] = d == 0 && !multi_dimensional ? kAssumedLinearBlock : kAssumedBlock[d];
      // Code that uses blockDim.x itself (`blockDim.x / 32` warps) is given a whole warp, as the
      // model assumes blockDim.x a multiple of 32 everywhere: 8 threads would make it 0 warps.
      if (d == 0 && !largest && tb.block_dim[0] != UINT32_MAX) tb.size[0] = std::max<uint32_t>(tb.size[0], 32);
      tb.assumed = true;
    }
  }
  return tb;
}

bool same_warp(int64_t a, int64_t b) { return a / 32 == b / 32; }

// The two addresses differ by what the enumeration can evaluate (their other parts are equal and
// uniform), and the conditions on both can be evaluated: their evaluable parts into numeric_*.
bool comparable(const Classifier& c, const SharedTouchForm& first, const SharedTouchForm& second, Poly& numeric_a,
                Poly& numeric_b) {
  auto sym_a = symbolic_part(c, first.offset, numeric_a);
  auto sym_b = symbolic_part(c, second.offset, numeric_b);
  if (!sym_a || !sym_b || !(*sym_a == *sym_b)) return false;
  for (const auto* guards : {&first.guards, &second.guards})
    for (const auto& g : *guards)
      if (!c.all_evaluable(g.form)) return false;
  return true;
}

// The bytes `first` touches: per byte, its first thread and a second one, from another warp than
// the first where there is one (a race between warps is what no warp-level ordering excuses).
void note_toucher(std::unordered_map<int64_t, std::pair<int64_t, int64_t>>& touched,
                  std::unordered_map<int64_t, bool>& late, int64_t byte, int64_t id, bool past_first) {
  auto [it, fresh] = touched.try_emplace(byte, id, -1);
  if (fresh) {
    late[byte] = past_first;
    return;
  }
  auto& [one, two] = it->second;
  if (one != id && (two < 0 || (same_warp(one, two) && !same_warp(one, id)))) two = id;
}

// Iterations: an atom in both accesses is the same iteration of a loop around both; one in
// only one is that access's own loop. False when a loop never runs.
bool iteration_odometers(const HazardDomain& domain, const std::set<AtomId>& all, const std::set<AtomId>& free_a,
                         const std::set<AtomId>& free_b, Odometer& shared_it, Odometer& own_a, Odometer& own_b) {
  for (AtomId a : all) {
    if ((*domain.atoms)[a].kind != AtomKind::Induction) continue;
    int64_t trips = std::min(domain.trip_counts->at(a), kMaxIterations);
    if (trips <= 0) return false;  // the loop never runs: nothing to compare
    Odometer& o = free_a.count(a) && free_b.count(a) ? shared_it : (free_a.count(a) ? own_a : own_b);
    o.atoms.push_back(a);
    o.limits.push_back(trips);
  }
  return true;
}

}  // namespace

std::optional<bool> guards_split_block(const HazardDomain& domain, const std::vector<LaneGuard>& guards,
                                       bool& assumed) {
  if (!domain.atoms || guards.empty()) return std::nullopt;
  Classifier c(domain);
  std::set<AtomId> free;
  for (const auto& g : guards) {
    if (!c.all_evaluable(g.form)) return std::nullopt;
    c.free_atoms(g.form, free);
  }
  for (AtomId a : free)
    if ((*domain.atoms)[a].kind == AtomKind::Induction) return std::nullopt;  // differs per iteration
  ThreadBlock tb = thread_block(domain, free, /*largest=*/true);
  assumed = tb.assumed;
  Evaluator ev(*domain.atoms, c);
  tb.set_block_dims(ev);
  bool some_hold = false, some_fail = false;
  for (int64_t id = 0; id < tb.threads() && !(some_hold && some_fail); ++id) {
    tb.set_thread(ev, id);
    for (const auto& g : guards)
      if (!ev.eval(g.form)) return std::nullopt;
    (guards_hold(ev, guards) ? some_hold : some_fail) = true;
  }
  return some_hold && some_fail;
}

std::optional<HazardWitness> find_shared_hazard(const HazardDomain& domain, const SharedTouchForm& first,
                                                const SharedTouchForm& second) {
  if (!domain.atoms || first.width == 0 || second.width == 0) return std::nullopt;
  const AtomTable& atoms = *domain.atoms;
  Classifier c(domain);
  Poly numeric_a, numeric_b;
  if (!comparable(c, first, second, numeric_a, numeric_b)) return std::nullopt;

  std::set<AtomId> free_a, free_b;
  c.free_atoms(numeric_a, free_a);
  c.free_atoms(numeric_b, free_b);
  for (const auto& g : first.guards) c.free_atoms(g.form, free_a);
  for (const auto& g : second.guards) c.free_atoms(g.form, free_b);
  std::set<AtomId> all = free_a;
  all.insert(free_b.begin(), free_b.end());

  HazardWitness w;
  ThreadBlock tb = thread_block(domain, all);
  w.block_assumed = tb.assumed;
  for (int d = 0; d < 3; ++d) w.block[d] = tb.size[d];
  Odometer shared_it, own_a, own_b;
  if (!iteration_odometers(domain, all, free_a, free_b, shared_it, own_a, own_b)) return std::nullopt;
  int64_t threads = tb.threads();
  Evaluator ev(atoms, c);
  tb.set_block_dims(ev);

  size_t evaluations = 0;
  std::optional<HazardWitness> found;  // a witness within one warp, while one across warps is sought
  shared_it.reset();
  do {
    shared_it.apply(ev);
    // byte -> up to two different threads of `first` that touch it
    std::unordered_map<int64_t, std::pair<int64_t, int64_t>> touched;
    std::unordered_map<int64_t, bool> late;  // byte touched by `first` in a later iteration
    own_a.reset();
    do {
      own_a.apply(ev);
      for (int64_t id = 0; id < threads; ++id) {
        if (++evaluations > kMaxEvaluations) return found;
        tb.set_thread(ev, id);
        if (!guards_hold(ev, first.guards)) continue;
        auto at = ev.eval(numeric_a);
        if (!at) continue;  // an iteration past the loop's end
        for (uint32_t b = 0; b < first.width; ++b)
          note_toucher(touched, late, static_cast<int64_t>(*at) + b, id, own_a.past_first());
      }
    } while (own_a.next());
    own_b.reset();
    do {
      own_b.apply(ev);
      for (int64_t id = 0; id < threads; ++id) {
        if (++evaluations > kMaxEvaluations) return found;
        tb.set_thread(ev, id);
        if (!guards_hold(ev, second.guards)) continue;
        auto at = ev.eval(numeric_b);
        if (!at) continue;
        for (uint32_t b = 0; b < second.width; ++b) {
          int64_t byte = static_cast<int64_t>(*at) + b;
          auto it = touched.find(byte);
          if (it == touched.end()) continue;
          int64_t other = it->second.first != id ? it->second.first : it->second.second;
          if (it->second.second >= 0 && it->second.second != id && same_warp(other, id) &&
              !same_warp(it->second.second, id))
            other = it->second.second;
          if (other < 0) continue;
          if (found && (!found->same_warp || same_warp(other, id))) continue;
          found = w;
          tb.coordinates(other, found->first_thread);
          tb.coordinates(id, found->second_thread);
          found->byte = byte;
          found->same_warp = same_warp(other, id);
          found->needs_iterations = shared_it.past_first() || own_b.past_first() || late[byte];
          if (!found->same_warp) return found;
        }
      }
    } while (own_b.next());
  } while (shared_it.next());
  return found;
}

}  // namespace kl::analyzers
