// The out-of-bounds facts of a global access of a kernel pointer parameter (MemoryAccess::tail,
// row_overrun, vector_tail), each read from the access's element index, the conditions on its
// path (Env::conditioned, Env::guards) and the launches the file makes. See
// access_interpreter_impl.h for the contracts and analyzers/rules/out_of_bounds.cpp for the rule.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/model/interpreter/access_interpreter_impl.h"
#include "analyzers/model/alignment_congruence.h"

namespace kl::analyzers {

// An access of a kernel pointer parameter at the thread's index along a dimension the launches
// round up, times a row length, plus what only grows (`out[i]`, `in[i + 1]`, `out[r * cols + c]`
// with r the rounded dimension's index), on a path no condition on that dimension decides: the
// last block's threads past the count make it too, at `stride * count` or beyond.
namespace {

// `p` is one kernel parameter, as written (`cols`, not `2 * cols` or `cols + 1`): its atom.
std::optional<AtomId> single_parameter(const Poly& p, const AtomTable& atoms) {
  const auto& terms = p.terms();
  if (terms.size() != 1 || terms[0].coefficient != 1 || terms[0].atoms.size() != 1) return std::nullopt;
  if (atoms[terms[0].atoms[0]].kind != AtomKind::Parameter) return std::nullopt;
  return terms[0].atoms[0];
}

// Every term of `p` is non-negative: positive coefficients over thread and block indices, block
// sizes and parameters (sizes and counts), so `p` can only push an index further.
bool only_grows(const Poly& p, const AtomTable& atoms) {
  for (const Term& t : p.terms()) {
    if (t.coefficient <= 0) return false;
    for (AtomId a : t.atoms) {
      AtomKind kind = atoms[a].kind;
      if (kind != AtomKind::ThreadIdx && kind != AtomKind::BlockIdx && kind != AtomKind::BlockDim &&
          kind != AtomKind::Parameter)
        return false;
    }
  }
  return true;
}

}  // namespace

void AccessInterpreter::Impl::note_row_overrun(int base, const Poly& offset, int64_t size, const Env& env,
                                               MemoryAccess& m) const {
  if (inclusive_bounds.empty() || !parameter_bases.count(base)) return;
  auto elements = offset.divided_exactly(size);
  if (!elements) return;
  for (const auto& [k, b] : inclusive_bounds) {
    // Straight in the loop's body (no test between the loop's head and the access), one element
    // per iteration.
    if (!elements->mentions(k) || env.conditioned != b.conditioned) continue;
    if (elements->derivative(k).constant_value() != 1) continue;
    // The bound is one parameter, the row's length, and the index is `row * bound + variable`.
    std::optional<AtomId> length = single_parameter(b.bound, atoms);
    if (!length) continue;
    auto last = elements->substituted(k, b.atom_last);
    auto past = last ? last->minus(b.bound) : std::nullopt;
    auto row = past ? past->divided_by_atom(*length) : std::nullopt;
    if (!row || row->is_constant() || row->mentions(k)) continue;
    if (!only_grows(*row, atoms)) continue;  // the row index: thread and block indices, parameters
    m.row_overrun = RowOverrun{b.variable, atoms.print(b.bound), atoms.print(*row)};
    return;
  }
}

// Where every launch makes the buffer of `base` exactly as many elements long as the integer
// parameter at `count` says (and the access is in those elements): where the host says so.
std::string AccessInterpreter::Impl::exact_extent(int base, int64_t access_size, int count) const {
  auto position = parameter_bases.find(base);
  auto element = parameter_elements.find(base);
  if (!launch_facts || count < 0 || position == parameter_bases.end() || element == parameter_elements.end() ||
      element->second.size != access_size)
    return "";
  auto i = static_cast<size_t>(position->second);
  if (i >= launch_facts->extent_counts.size()) return "";
  const std::vector<int>& counts = launch_facts->extent_counts[i];
  return std::find(counts.begin(), counts.end(), count) != counts.end() ? launch_facts->extent_notes[i] : "";
}

int AccessInterpreter::Impl::parameter_position(AtomId parameter) const {
  auto position = std::find(parameter_names.begin(), parameter_names.end(), atoms[parameter].name);
  return position == parameter_names.end() ? -1 : static_cast<int>(position - parameter_names.begin());
}

// The tightest upper test of element index `e` by one count parameter among the path's tests
// of dimension d's thread index (`g < n + k`, with e - g constant): e <= n + reach. Nothing when
// another test of that index (`i < n && i < m`, a test of a form it cannot read) could stop it
// earlier; a lower bound (`i > 0`) does not.
std::optional<AccessInterpreter::Impl::GuardBound> AccessInterpreter::Impl::tightest_guard(
    const Poly& e, int d, const Env& env) const {
  std::vector<LaneGuard> guards = env.guards;
  for (const LoopSync& loop : loop_sync) guards.insert(guards.end(), loop.guards.begin(), loop.guards.end());
  std::optional<GuardBound> tightest;
  for (const LaneGuard& g : guards) {
    Poly form = with_known_values(g.form, env.facts);
    if (!form.mentions(thread[d])) continue;
    if (form.derivative(thread[d]).constant_value().value_or(0) < 0) continue;  // a lower bound (`i > 0`)
    std::optional<GuardBound> bound;
    if (g.op == LaneGuard::Op::Lt || g.op == LaneGuard::Op::Le) {
      for (AtomId a : form.atoms()) {
        if (atoms[a].kind != AtomKind::Parameter || form.derivative(a).constant_value() != -1) continue;
        auto guarded = form.plus(Poly::atom(a));
        auto c = guarded ? e.minus(*guarded) : std::nullopt;
        if (!guarded || guarded->mentions(a) || !c || !c->is_constant()) continue;
        bool inclusive = g.op == LaneGuard::Op::Le;
        bound = GuardBound{c->constant_term() - (inclusive ? 0 : 1), inclusive, *guarded, a};
      }
    }
    if (!bound) return std::nullopt;
    if (!tightest || bound->reach < tightest->reach) tightest = bound;
    else if (bound->reach == tightest->reach && bound->count != tightest->count) return std::nullopt;
  }
  return tightest;
}

// Whether the threads together take `guarded` through every value below its bound: it is the
// thread's index along d and the launch rounds that dimension up over the count parameter at
// `count` (then `rounded` is set), or a grid- or block-stride loop's variable (then `loop_variable`
// names it).
bool AccessInterpreter::Impl::covers_every_index(const Poly& guarded, int d, int count, const Env& env,
                                                 bool& rounded, std::string& loop_variable) const {
  auto block_index = atoms.find(std::string("blockIdx.") + "xyz"[d]);
  auto grid_size = atoms.find(std::string("gridDim.") + "xyz"[d]);
  Poly threads_in_block = block_dim[d] == UINT32_MAX ? Poly() : with_known_values(Poly::atom(block_dim[d]), env.facts);
  if (threads_in_block.is_zero()) return false;
  // The thread's index in the grid, as the path knows the block size.
  std::optional<Poly> grid_index =
      block_index ? Poly::atom(*block_index).times(threads_in_block) : std::optional<Poly>(Poly());
  grid_index = grid_index ? grid_index->plus(Poly::atom(thread[d])) : std::nullopt;
  if (!grid_index) return false;
  auto step = guarded.minus(*grid_index);
  auto strided = [&](const std::optional<Poly>& rest, const Poly& stride) {
    if (!rest || rest->terms().size() != 1) return false;
    for (AtomId k : rest->atoms())
      if (atoms[k].kind == AtomKind::Induction && rest->derivative(k) == stride) {
        // The iteration atom is named after its variable ("i's iteration").
        const std::string& name = atoms[k].name;
        loop_variable = name.substr(0, name.find('\''));
        return true;
      }
    return false;
  };
  const RoundedGrid& r = launch_facts->rounded[d];
  rounded = step && step->is_zero() && r.block > 0 && r.parameter == count && launch_facts->block[d] &&
            int64_t{*launch_facts->block[d]} == r.block;
  if (rounded) return true;
  std::optional<Poly> grid_stride = grid_size ? threads_in_block.times(Poly::atom(*grid_size)) : std::nullopt;
  return (grid_stride && strided(step, *grid_stride)) || strided(guarded.minus(Poly::atom(thread[d])), threads_in_block);
}

// An access `in[e]` into a buffer every launch makes exactly n elements long, on a path whose
// tightest test of the index is `g < n` (or `g <= n`) with e = g + c, where the threads together
// take g through every value below the bound (covers_every_index). Then some thread reads element
// n - 1 + c (`g < n`) or n + c (`g <= n`; for a rounded grid only when its block does not divide
// n): past the end when that is n or more.
void AccessInterpreter::Impl::note_guarded_overrun(int base, const Poly& offset, int64_t size, const Env& env,
                                                   MemoryAccess& m) const {
  if (!launch_facts || m.tail || !parameter_bases.count(base)) return;
  auto elements = offset.divided_exactly(size);
  if (!elements) return;
  for (int d = 0; d < 3; ++d) {
    if (thread[d] == UINT32_MAX || !elements->mentions(thread[d])) continue;
    std::optional<GuardBound> tightest = tightest_guard(*elements, d, env);
    if (!tightest || tightest->reach < 0) continue;
    // Which parameter the count is, and whether every launch's buffer holds exactly that many.
    const int count = parameter_position(tightest->count);
    if (count < 0) continue;
    std::string extent = exact_extent(base, size, count);
    bool rounded = false;
    std::string loop_variable;
    if (extent.empty() || !covers_every_index(tightest->guarded, d, count, env, rounded, loop_variable)) continue;
    GuardedOverrun o;
    o.past = tightest->reach + 1;
    o.index = !rounded && !loop_variable.empty() ? loop_variable : atoms.print(tightest->guarded);
    o.count = parameter_names[count];
    o.inclusive = tightest->inclusive;
    // `g <= n` on a rounded grid reaches n only where the last block runs past it.
    if (tightest->inclusive && rounded) o.when_not_multiple_of = launch_facts->rounded[d].block;
    o.extent = extent;
    o.launch = rounded ? launch_facts->rounded[d].launch : Location{};
    m.guarded_overrun = std::move(o);
    return;
  }
}

void AccessInterpreter::Impl::note_tail(int base, const Poly& offset, int64_t size, const Env& env,
                                        MemoryAccess& m) const {
  if (!launch_facts || !parameter_bases.count(base)) return;
  auto elements = offset.divided_exactly(size);
  if (!elements) return;
  for (int d = 0; d < 3; ++d) {
    const RoundedGrid& r = launch_facts->rounded[d];
    if (env.conditioned & (1u << d)) continue;
    if (r.block == 0 || !launch_facts->block[d] || int64_t{*launch_facts->block[d]} != r.block) continue;
    auto block_index = atoms.find(std::string("blockIdx.") + "xyz"[d]);
    if (!block_index || thread[d] == UINT32_MAX) continue;
    // The index's stride: a positive constant, or one kernel parameter (a row's length).
    Poly stride = elements->derivative(thread[d]);
    bool constant_stride = stride.constant_value().value_or(0) > 0;
    bool parameter_stride = single_parameter(stride, atoms).has_value();
    if (!constant_stride && !parameter_stride) continue;
    auto index = Poly::atom(*block_index, r.block).plus(Poly::atom(thread[d]));
    auto scaled = index ? index->times(stride) : std::nullopt;
    auto rest = scaled ? elements->minus(*scaled) : std::nullopt;
    if (!rest || rest->mentions(thread[d]) || rest->mentions(*block_index)) continue;
    if (!only_grows(*rest, atoms)) continue;  // what is added to the thread's index
    TailReach t;
    t.dimension = d;
    t.block = r.block;
    if (rest->is_constant())
      t.past_count = rest->constant_term();
    else
      t.past_count = -1;
    if (!constant_stride || *stride.constant_value() != 1) t.stride = atoms.print(stride);
    t.count = r.count;
    t.count_value = r.count_value;
    if (r.parameter >= 0 && static_cast<size_t>(r.parameter) < parameter_names.size())
      t.parameter = parameter_names[r.parameter];
    t.launch = r.launch;
    t.extent = exact_extent(base, size, r.parameter);
    m.tail = std::move(t);
    return;
  }
}

// A vector access of a pointer parameter (`reinterpret_cast<const float4*>(in)[v]`: 4 floats of
// `in` from element 4·v on) where consecutive threads take consecutive vectors and the tightest
// test of the vector's first element against a count parameter (an `if` on its path or an
// enclosing loop's condition) is `first < n` (`4 * v < n`): with n % 4 != 0 the last vector
// starts below n and ends past it. Silent when a test bounds the vector's last element
// (`4 * v + 3 < n`), when the count is known to be a multiple of the vector's length (a check in
// the kernel, or on every launch's host path), and for anything it cannot read as such
// (`v < n / 4`, a count that is not one parameter).
void AccessInterpreter::Impl::note_vector_tail(int base, const Poly& offset, int64_t size, const Env& env,
                                               MemoryAccess& m) const {
  auto element = parameter_elements.find(base);
  if (element == parameter_elements.end() || !parameter_bases.count(base)) return;
  const int64_t unit = element->second.size;
  if (unit <= 0 || size <= unit || size % unit != 0) return;
  const int64_t span = size / unit;
  if ((span & (span - 1)) != 0) return;  // congruences are modulo powers of two
  auto first = offset.divided_exactly(unit);
  if (!first) return;
  bool consecutive = false;  // one vector after another along some thread dimension
  for (int d = 0; d < 3; ++d)
    if (thread[d] != UINT32_MAX && first->derivative(thread[d]).constant_value() == span) consecutive = true;
  if (!consecutive || !congruence_of(atoms, *first, &env.facts).divisible_by(static_cast<uint64_t>(span)))
    return;
  // Per count parameter, the tightest bound the guards put on the first element: first < n + k.
  std::map<AtomId, int64_t> tightest;
  std::vector<LaneGuard> guards = env.guards;  // the path's tests and the enclosing loops' conditions
  for (const LoopSync& loop : loop_sync) guards.insert(guards.end(), loop.guards.begin(), loop.guards.end());
  for (const LaneGuard& g : guards) {
    if (g.op != LaneGuard::Op::Lt && g.op != LaneGuard::Op::Le) continue;
    // first - form: first < limit (Lt), first <= limit (Le); the form with the path's known values,
    // as the offset has them (a launch's block size)
    auto limit = first->minus(with_known_values(g.form, env.facts));
    if (!limit) continue;
    int64_t k = limit->constant_term() + (g.op == LaneGuard::Op::Le ? 1 : 0);
    auto count = limit->minus(Poly::constant(limit->constant_term()));
    auto parameter = count ? single_parameter(*count, atoms) : std::nullopt;
    if (!parameter) continue;
    auto [it, inserted] = tightest.emplace(*parameter, k);
    if (!inserted) it->second = std::min(it->second, k);
  }
  for (const auto& [parameter, k] : tightest) {
    if (k != 0) continue;  // `4 * v + 3 < n` bounds the last element; other offsets are not read
    Poly count = Poly::atom(parameter);
    if (congruence_of(atoms, count, &env.facts).divisible_by(static_cast<uint64_t>(span))) continue;
    m.vector_tail = VectorTail{span, unit, element->second.type, atoms.print(count),
                               exact_extent(base, unit, parameter_position(parameter))};
    return;
  }
}

}  // namespace kl::analyzers
