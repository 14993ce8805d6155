#include "analyzers/model/access_warp.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

namespace kl::analyzers {
namespace {

using Wide = WideInt;


struct LaneCoords {
  int64_t x = 0, y = 0, z = 0;
};

// Evaluates forms for one lane. Thread-index atoms take the lane's coordinates; quotients of
// thread-dependent forms by constants are computed; every other atom is one large value per
// warp: a multiple of 1024 (sector-aligned, a multiple of any warp's span) plus whatever
// residue its congruence fixes.
class LaneEvaluator {
 public:
  LaneEvaluator(const WarpQuery& q) : q_(q), atoms_(*q.atoms) {}

  void set_lane(const LaneCoords& lane) { lane_ = lane; }
  // Moves the free atoms in `steps` by `k` times their step (row_starts).
  void set_row_step(const std::vector<std::pair<AtomId, int64_t>>* steps, int64_t k) {
    row_steps_ = steps;
    row_k_ = k;
  }

  std::optional<Wide> eval(const Poly& p) const {
    return evaluate(p, [this](AtomId a) { return value(a); });
  }

  // Does the form depend on the lane (thread atoms, directly or through quotients)?
  bool lane_dependent(const Poly& p) const {
    for (AtomId a : p.atoms())
      if (is_lane_atom(a)) return true;
    return false;
  }

  bool is_lane_atom(AtomId a) const {
    const Atom& atom = atoms_[a];
    if (atom.kind == AtomKind::ThreadIdx) return true;
    if (atom.kind == AtomKind::Opaque && atom.loaded && atom.variation == Variation::Piecewise) return lane_dependent(atom.inner);
    if (atom.kind == AtomKind::Quotient && (atom.divisor.is_constant() || eval_known(atom.divisor)))
      return lane_dependent(atom.inner);
    return false;
  }

 private:
  std::optional<Wide> value(AtomId a) const {
    const Atom& atom = atoms_[a];
    if (q_.facts) {
      if (auto it = q_.facts->values.find(a); it != q_.facts->values.end()) return Wide(it->second);
    }
    switch (atom.kind) {
      case AtomKind::ThreadIdx:
        return Wide(atom.dim == 0 ? lane_.x : atom.dim == 1 ? lane_.y : lane_.z);
      case AtomKind::BlockDim: {
        const std::optional<uint32_t>& known = atom.dim == 0 ? q_.block.x : atom.dim == 1 ? q_.block.y : q_.block.z;
        if (known) return Wide(*known);
        break;
      }
      case AtomKind::Quotient:
        // A divisor the launches fix (`idx / dim4`, dim4 = 64 at every launch) divides per lane
        // like a written constant.
        if (lane_dependent(atom.inner)) {
          auto d = atom.divisor.is_constant() ? std::optional<Wide>(atom.divisor.constant_term()) : eval_known(atom.divisor);
          if (!d) break;
          if (*d == 0) return std::nullopt;
          auto inner = eval(atom.inner);
          if (!inner) return std::nullopt;
          return floor_div(*inner, *d) + row_bump(a);
        }
        break;
      case AtomKind::Opaque:
        // A value loaded at a piecewise address (access_values.h): lanes reading one address
        // share one large value, lanes reading another get a far-away one.
        if (atom.loaded && atom.variation == Variation::Piecewise) {
          auto at = eval(atom.inner);
          if (!at) return std::nullopt;
          return Wide(1024) * (Wide(1001 + 2 * static_cast<int64_t>(a)) + Wide(8191) * *at);
        }
        break;
      default:
        break;
    }
    if (atom.variation == Variation::Varying) return std::nullopt;
    if (auto exact = exact_value(a)) return Wide(*exact);
    Congruence c = atom.congruence;
    if (q_.facts) {
      if (auto it = q_.facts->congruences.find(a); it != q_.facts->congruences.end()) c = it->second;
    }
    int bits = std::min(c.bits, 10);
    Wide residue = bits > 0 ? Wide(c.residue & ((int64_t{1} << bits) - 1)) : 0;
    return Wide(1024) * Wide(1001 + 2 * static_cast<int64_t>(a)) + residue + row_bump(a);
  }

  // What set_row_step adds to atom `a` (0 for atoms it does not step).
  Wide row_bump(AtomId a) const {
    if (!row_steps_) return 0;
    for (const auto& [atom, step] : *row_steps_)
      if (atom == a) return Wide(row_k_) * step;
    return 0;
  }

  const WarpQuery& q_;
  const AtomTable& atoms_;
  LaneCoords lane_;
  const std::vector<std::pair<AtomId, int64_t>>* row_steps_ = nullptr;
  int64_t row_k_ = 0;

 public:
  // The form's value when every atom in it is known (a fact, a launch constant, a known
  // blockDim), else nothing: the free atoms' stand-in values must not leak into a verdict.
  std::optional<Wide> eval_known(const Poly& p) const {
    for (AtomId a : p.atoms()) {
      const Atom& atom = atoms_[a];
      bool known = (q_.facts && q_.facts->values.count(a)) || exact_value(a).has_value();
      if (atom.kind == AtomKind::BlockDim)
        known = known || (atom.dim == 0 ? q_.block.x : atom.dim == 1 ? q_.block.y : q_.block.z).has_value();
      if (!known) return std::nullopt;
    }
    return eval(p);
  }

  // A value every launch in the file passes as the same constant (its congruence is exact).
  std::optional<int64_t> exact_value(AtomId a) const { return launch_constant(atoms_[a]); }
};

struct WarpSim {
  uint32_t sectors = 0, ideal = 0, aligned = 0, active = 0, shift = 0;
  uint32_t wavefronts = 0, ideal_wavefronts = 0;  // shared memory only
  bool uniform = true;
  std::optional<Wide> lane0, lane1;
};

uint32_t count_sectors(const std::vector<Wide>& addresses, uint32_t width, Wide shift) {
  std::set<Wide> sectors;
  for (Wide a : addresses) {
    Wide first = floor_div(a - shift, 32);
    Wide last = floor_div(a - shift + width - 1, 32);
    for (Wide s = first; s <= last; ++s) sectors.insert(s);
  }
  return static_cast<uint32_t>(sectors.size());
}

bool guard_holds(const LaneEvaluator& ev, const LaneGuard& g, const Poly& lane_part, const Poly& rest,
                 const std::optional<Wide>& reference) {
  bool rest_symbolic = !rest.is_constant();
  if (rest_symbolic) {
    // Only an equality says something here: at most the lanes whose thread part equals the
    // reference lane's can satisfy it.
    if (g.op != LaneGuard::Op::Eq || !reference) return true;
    auto v = ev.eval(lane_part);
    return v && *v == *reference;
  }
  auto v = ev.eval(g.form);
  if (!v) return true;
  switch (g.op) {
    case LaneGuard::Op::Eq: return *v == 0;
    case LaneGuard::Op::Ne: return *v != 0;
    case LaneGuard::Op::Lt: return *v < 0;
    case LaneGuard::Op::Le: return *v <= 0;
  }
  return true;
}

// The thread index fixed offsets stand for: known values and known blockDim substituted, so the
// simulation sees `threadIdx.y * 16` rather than `threadIdx.y * blockDim.x`.
Poly resolved_offset(const WarpQuery& q) {
  Poly offset = q.facts ? with_known_values(q.offset, *q.facts) : q.offset;
  for (int d = 0; d < 3; ++d) {
    const std::optional<uint32_t>& known = d == 0 ? q.block.x : d == 1 ? q.block.y : q.block.z;
    if (known && q.block_dim_atoms[d] != UINT32_MAX && offset.mentions(q.block_dim_atoms[d])) {
      if (auto s = offset.substituted(q.block_dim_atoms[d], Poly::constant(*known))) offset = std::move(*s);
    }
  }
  return offset;
}

// Which thread dimensions vary inside a warp: threadIdx.x always; threadIdx.y only when a row of
// the block is known to be shorter than a warp; threadIdx.z only when a whole x-y plane is.
struct WarpLayout {
  bool x_known = false;
  uint32_t bx = 0;
  bool y_varies = false;
  bool z_varies = false;
};

WarpLayout warp_layout(const BlockShape& block) {
  WarpLayout layout;
  layout.x_known = block.x.has_value();
  layout.bx = block.x.value_or(0);
  layout.y_varies = layout.x_known && layout.bx < 32;
  uint32_t by = block.y.value_or(0);
  layout.z_varies = layout.y_varies && block.y && layout.bx * by < 32;
  return layout;
}

// d(offset)/d(threadIdx.dim), when the address uses that dimension at all.
std::optional<Poly> stride_along(const WarpQuery& q, const Poly& offset, int dim) {
  AtomId t = q.thread_atoms[dim];
  if (t == UINT32_MAX || !offset.mentions(t)) return std::nullopt;
  Poly d = offset.derivative(t);
  if (d.is_zero()) return std::nullopt;
  return d;
}

// A stride that is the same for every lane but unknown here (a runtime pitch): printed, in
// elements when it divides evenly, and valued when every launch in the file fixes it.
void describe_runtime_stride(const WarpQuery& q, const LaneEvaluator& ev, const Poly& stride,
                             WarpEstimate& out) {
  out.runtime_stride = true;
  Poly shown = stride;
  if (q.element_size > 0) {
    if (auto e = stride.divided_exactly(q.element_size)) {
      shown = *e;
      out.stride_in_elements = true;
    }
  }
  out.stride_text = q.atoms->print(shown);
  // Known at every launch in the file: keep the name, add the value.
  bool exact = true;
  for (AtomId a : stride.atoms()) exact = exact && ev.exact_value(a).has_value();
  if (exact) {
    if (auto v = ev.eval(stride)) out.lane_stride = static_cast<int64_t>(*v);
  }
}

// Lane stride along the fastest dimension that the address uses. lane_dimension names the last
// dimension tried, as the message reports it even when no dimension has a stride.
void describe_lane_stride(const WarpQuery& q, const Poly& offset, const WarpLayout& layout,
                          const LaneEvaluator& ev, WarpEstimate& out) {
  std::optional<Poly> stride = stride_along(q, offset, 0);
  out.lane_dimension = "threadIdx.x";
  if (!stride && layout.y_varies) {
    stride = stride_along(q, offset, 1);
    out.lane_dimension = "threadIdx.y";
  }
  if (!stride && layout.z_varies) {
    stride = stride_along(q, offset, 2);
    out.lane_dimension = "threadIdx.z";
  }
  if (!stride) return;
  if (auto c = stride->constant_value()) {
    out.lane_stride = *c;
  } else if (!ev.lane_dependent(*stride) && q.atoms->variation(*stride) != Variation::Varying) {
    describe_runtime_stride(q, ev, *stride, out);
  }
}

// A gather: every per-lane unknown in the address is a value the lane loaded itself (an index
// array); its first one is named. Anything else (a lost track) stays unjudged.
std::string gather_index_of(const AtomTable& atoms, const Poly& offset) {
  std::string first_loaded;
  bool all_loaded = true;
  for (AtomId a : offset.atoms()) {
    if (atoms[a].variation != Variation::Varying) continue;
    if (!atoms[a].loaded)
      all_loaded = false;
    else if (first_loaded.empty())
      first_loaded = atoms[a].name;
  }
  return all_loaded ? first_loaded : std::string();
}

// Does `p` use a value read from shared memory, directly or inside a quotient or a loaded value's
// address?
bool reads_shared(const AtomTable& atoms, const Poly& p, int depth = 0) {
  if (depth > 4) return false;
  for (AtomId a : p.atoms()) {
    const Atom& atom = atoms[a];
    if (atom.from_shared) return true;
    if ((atom.kind == AtomKind::Quotient || atom.loaded) && reads_shared(atoms, atom.inner, depth + 1)) return true;
  }
  return false;
}

// The values in `p` that lanes loaded at addresses that depend on the thread index (`ids[tid]`,
// `slot[tid / 32]`), directly or inside a quotient.
void loaded_indices(const AtomTable& atoms, const Poly& p, std::vector<AtomId>& out, int depth = 0) {
  if (depth > 4) return;
  for (AtomId a : p.atoms()) {
    const Atom& atom = atoms[a];
    if (atom.kind == AtomKind::Opaque && atom.loaded && atom.variation == Variation::Piecewise) {
      if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
    } else if (atom.kind == AtomKind::Quotient) {
      loaded_indices(atoms, atom.inner, out, depth + 1);
    }
  }
}

// Guards split into their thread part and the rest, once per access rather than once per lane.
using GuardParts = std::vector<std::pair<Poly, Poly>>;

GuardParts split_guards(const WarpQuery& q, const LaneEvaluator& ev) {
  GuardParts parts;
  for (const auto& g : q.guards) {
    Poly form = q.facts ? with_known_values(g.form, *q.facts) : g.form;
    parts.push_back(form.split([&](AtomId a) { return ev.is_lane_atom(a); }));
  }
  return parts;
}

// Up to four warps of the block: enough to see a row boundary inside a warp; a block whose y is
// unknown is taken to be 64 rows deep.
int warps_to_simulate(const BlockShape& block, const WarpLayout& layout) {
  if (!layout.x_known) return 1;
  uint64_t threads = uint64_t{layout.bx} * (block.y ? *block.y : 64) * (block.z ? *block.z : 1);
  return static_cast<int>(std::clamp<uint64_t>((threads + 31) / 32, 1, 4));
}

// The thread index of linear thread `l` of the block (x fastest); with blockDim.x unknown every
// lane of the warp differs only in x.
LaneCoords lane_coords(const BlockShape& block, const WarpLayout& layout, int64_t l) {
  LaneCoords c;
  if (layout.x_known && layout.bx > 0) {
    uint32_t bx = layout.bx;
    c.x = l % bx;
    c.y = block.y ? (l / bx) % *block.y : l / bx;
    c.z = block.y && *block.y > 0 ? l / (int64_t{bx} * *block.y) : 0;
  } else {
    c.x = l;
  }
  return c;
}

enum class WarpOutcome : uint8_t { Simulated, NoActiveLane, AddressUnknown };

// Runs the lanes of one warp through the guards and the address. Its scratch buffers live as
// long as the simulator, so simulating another warp allocates nothing new for them.
class WarpSimulator {
 public:
  WarpSimulator(const WarpQuery& q, const Poly& offset, const WarpLayout& layout,
                const GuardParts& guard_parts, LaneEvaluator& ev)
      : q_(q), offset_(offset), layout_(layout), guard_parts_(guard_parts), ev_(ev) {
    addresses_.reserve(32);
    if (q.block.x && q.block.y && q.block.z)
      block_threads_ = int64_t{*q.block.x} * *q.block.y * *q.block.z;
  }

  // Whether `form` has one value over the active lanes of warp `w` (true when it cannot be
  // computed: nothing is known to differ).
  bool uniform_over_active_lanes(int w, const Poly& form) {
    references_.assign(q_.guards.size(), std::nullopt);
    std::optional<Wide> first;
    for (int lane = 0; lane < 32; ++lane) {
      if (!set_lane(w, lane) || !lane_is_active()) continue;
      auto v = ev_.eval(form);
      if (!v) return true;
      if (first && *v != *first) return false;
      first = v;
    }
    return true;
  }

  // Lanes of warp `w` that the guards leave active (the address need not be computable).
  uint32_t active_lanes(int w) {
    references_.assign(q_.guards.size(), std::nullopt);
    uint32_t active = 0;
    for (int lane = 0; lane < 32; ++lane) active += set_lane(w, lane) && lane_is_active();
    return active;
  }

  WarpOutcome simulate(int w, WarpSim& sim) {
    addresses_.clear();
    references_.assign(q_.guards.size(), std::nullopt);
    lanes_.clear();
    for (int lane = 0; lane < 32; ++lane) {
      if (!set_lane(w, lane) || !lane_is_active()) continue;
      auto a = ev_.eval(offset_);
      if (!a) return WarpOutcome::AddressUnknown;
      if (lane == 0) sim.lane0 = a;
      if (lane == 1) sim.lane1 = a;
      if (!addresses_.empty() && *a != addresses_.front()) sim.uniform = false;
      addresses_.push_back(*a);
      lanes_.push_back(lane);
    }
    sim.active = static_cast<uint32_t>(addresses_.size());
    if (sim.active == 0) return WarpOutcome::NoActiveLane;
    if (q_.shared) count_warp_wavefronts(sim);
    else count_warp_sectors(sim);
    return WarpOutcome::Simulated;
  }

 private:
  // Points the evaluator at lane `lane` of warp `w`; false when the block has no such thread (a
  // block of 16 threads fills half a warp, one of 1 thread a single lane).
  bool set_lane(int w, int lane) {
    int64_t linear = int64_t{w} * 32 + lane;
    if (block_threads_ && linear >= *block_threads_) return false;
    ev_.set_lane(lane_coords(q_.block, layout_, linear));
    return true;
  }

  // A guard whose non-thread part is symbolic is judged against the first lane that evaluates
  // it (the reference), so it stays per warp.
  bool lane_is_active() {
    bool active = true;
    for (size_t g = 0; g < q_.guards.size() && active; ++g) {
      const auto& [lane_part, rest] = guard_parts_[g];
      if (!references_[g] && !rest.is_constant()) references_[g] = ev_.eval(lane_part);
      active = guard_holds(ev_, q_.guards[g], lane_part, rest, references_[g]);
    }
    return active;
  }

  // Sectors as addressed, as if the first address sat on a sector boundary, and as the active
  // lanes' bytes would need at best.
  void count_warp_sectors(WarpSim& sim) const {
    sim.sectors = count_sectors(addresses_, q_.width, 0);
    Wide first = addresses_.front();
    Wide shift = first - floor_div(first, 32) * 32;
    sim.aligned = count_sectors(addresses_, q_.width, shift);
    sim.shift = static_cast<uint32_t>(shift);
    sim.ideal = static_cast<uint32_t>((uint64_t{sim.active} * q_.width + 31) / 32);
  }

  // Bank wavefronts, from the lanes' distances to the first lane: a value common to the warp
  // (a runtime row offset the evaluator made large) cancels, and what remains is kept modulo
  // 2^60, a multiple of the 128 bytes of a bank round, so no bank changes.
  void count_warp_wavefronts(WarpSim& sim) {
    relative_.clear();
    const Wide modulus = Wide(1) << 60;
    for (Wide a : addresses_) {
      Wide d = (a - addresses_.front()) % modulus;
      relative_.push_back(static_cast<int64_t>(d < 0 ? d + modulus : d));
    }
    sim.wavefronts = bank_wavefronts(relative_, lanes_, q_.width, sim.ideal_wavefronts);
  }

  const WarpQuery& q_;
  const Poly& offset_;
  const WarpLayout& layout_;
  const GuardParts& guard_parts_;
  LaneEvaluator& ev_;
  std::vector<Wide> addresses_;
  std::vector<int> lanes_;         // the lane of each address
  std::vector<int64_t> relative_;  // shared memory: each address less the first
  std::vector<std::optional<Wide>> references_;
  std::optional<int64_t> block_threads_;  // threads per block, when the whole shape is known
};

// The warp reported is the one wasting the most sectors; a warp of several active lanes always
// beats a single-lane one, which says nothing about coalescing.
bool replaces_worst(const WarpSim& sim, const WarpSim& worst, bool have_worst) {
  int64_t excess = int64_t{sim.sectors} - sim.ideal + sim.wavefronts - sim.ideal_wavefronts;
  int64_t worst_excess = int64_t{worst.sectors} - worst.ideal + worst.wavefronts - worst.ideal_wavefronts;
  return !have_worst || excess > worst_excess || (sim.active > 1 && worst.active <= 1);
}

void report_worst_warp(const WarpSim& worst, WarpEstimate& out) {
  out.sectors = worst.sectors;
  out.ideal_sectors = worst.ideal;
  out.sectors_if_aligned = worst.aligned;
  out.window_shift = worst.shift;
  out.active_lanes = worst.active;
  out.wavefronts = worst.wavefronts;
  out.ideal_wavefronts = worst.ideal_wavefronts;
  // No stride from the form: the distance between the first two lanes' addresses stands for it.
  if (!out.lane_stride && !out.runtime_stride && worst.lane0 && worst.lane1)
    out.lane_stride = static_cast<int64_t>(*worst.lane1 - *worst.lane0);
  if (worst.active <= 1) out.pattern = LanePattern::SingleLane;
  else if (worst.uniform) out.pattern = LanePattern::Uniform;
  else out.pattern = LanePattern::Estimated;
}

// The worst warp of one block (up to four warps), or why there is none.
WarpOutcome simulate_block(WarpSimulator& simulator, int warps, WarpSim& worst) {
  bool have = false;
  for (int w = 0; w < warps; ++w) {
    WarpSim sim;
    WarpOutcome outcome = simulator.simulate(w, sim);
    if (outcome == WarpOutcome::AddressUnknown) return outcome;
    if (outcome == WarpOutcome::NoActiveLane) continue;
    if (replaces_worst(sim, worst, have)) {
      worst = sim;
      have = true;
    }
  }
  return have ? WarpOutcome::Simulated : WarpOutcome::NoActiveLane;
}

using RowSteps = std::vector<std::pair<AtomId, int64_t>>;

// The block and loop indices that move the warp's first address by a known number of bytes per
// step: each appears linearly, with a coefficient whose atoms all have known values. A row index
// multiplied by an unknown pitch is left alone (the pitch may well be a multiple of 32 bytes).
// `coefficient` receives the first such index's coefficient, in bytes.
RowSteps row_index_steps(const WarpQuery& q, const Poly& offset, const LaneEvaluator& ev, Poly& coefficient,
                         int64_t& bytes_per_step) {
  RowSteps steps;
  bytes_per_step = 0;
  for (AtomId a : offset.atoms()) {
    const Atom& atom = (*q.atoms)[a];
    // A warp's index in its block (`threadIdx.x / 32`, `warp.meta_group_rank()`) is one row per
    // warp as much as a block index is one row per block.
    bool warp_index = atom.kind == AtomKind::Quotient && atom.divisor.is_constant() &&
                      atom.divisor.constant_term() % 32 == 0 && ev.lane_dependent(atom.inner);
    if (atom.kind != AtomKind::BlockIdx && atom.kind != AtomKind::Induction && !warp_index) continue;
    if (q.facts && q.facts->values.count(a)) continue;
    Poly c = offset.derivative(a);
    if (c.is_zero() || c.mentions(a) || ev.lane_dependent(c)) continue;
    auto value = ev.eval_known(c);
    if (!value) continue;
    int bits = std::min(atom.congruence.bits, 10);
    int64_t step = int64_t{1} << bits;
    // A loop that moves each lane by less than the warp's span slides one window over the same
    // sectors (a per-thread walk); only a step to other data is a new row.
    Wide span = Wide(32) * q.width;
    if (atom.kind == AtomKind::Induction && (*value * step < span && *value * step > -span)) continue;
    int64_t moved = static_cast<int64_t>((*value * step) % 32);
    if (moved == 0) continue;
    if (steps.empty()) {
      coefficient = c;
      bytes_per_step = moved;
    }
    steps.emplace_back(a, step);
  }
  return steps;
}

// Steps the row indices through one period of the residues they reach (at most 32 steps) and
// records how often the worst warp starts inside a sector and what that costs.
void simulate_row_starts(const WarpQuery& q, const Poly& offset, LaneEvaluator& ev, WarpSimulator& simulator,
                         int warps, WarpEstimate& out) {
  Poly coefficient;
  int64_t moved = 0;
  RowSteps steps = row_index_steps(q, offset, ev, coefficient, moved);
  if (steps.empty()) return;
  int64_t period = 32 / std::gcd(moved < 0 ? -moved : moved, int64_t{32});
  uint32_t off = 0, extra = 0, simulated = 0;
  for (int64_t k = 0; k < period; ++k) {
    ev.set_row_step(&steps, k);
    WarpSim worst;
    if (simulate_block(simulator, warps, worst) != WarpOutcome::Simulated) continue;
    ++simulated;
    off += worst.shift != 0;
    extra += worst.sectors > worst.ideal ? worst.sectors - worst.ideal : 0;
  }
  ev.set_row_step(nullptr, 0);
  if (simulated == 0) return;
  out.row_steps = simulated;
  out.rows_off_sector = off;
  out.row_excess_total = extra;
  out.row_index = (*q.atoms)[steps.front().first].name;
  Poly shown = coefficient;
  auto bytes = ev.eval_known(coefficient);
  std::optional<Poly> elements = q.element_size > 0 ? coefficient.divided_exactly(q.element_size) : std::nullopt;
  out.row_stride_in_elements = elements.has_value();
  if (elements) shown = *elements;
  if (bytes) out.row_stride = static_cast<int64_t>(elements ? *bytes / q.element_size : *bytes);
  out.row_stride_text = q.atoms->print(shown);
}

// The vector nvcc makes of an unrolled loop whose index moves each lane by one element
// (`row[k]` for k < 4, `counts[t][i]` for i < 64): as wide as the lanes' own alignment allows,
// at most 16 bytes. 0 when no loop index steps by one element, or the access cannot widen.
uint32_t loop_vector_width(const WarpQuery& q, const Poly& offset, const LaneEvaluator& ev, int64_t lane_stride) {
  if (q.width == 0 || q.width >= 16 || lane_stride == 0) return 0;
  bool steps_by_element = false;
  for (AtomId a : offset.atoms()) {
    if ((*q.atoms)[a].kind != AtomKind::Induction) continue;
    Poly c = offset.derivative(a);
    if (c.is_zero() || c.mentions(a) || ev.lane_dependent(c)) continue;
    auto value = ev.eval_known(c);
    if (value && *value == Wide(q.width)) steps_by_element = true;
  }
  if (!steps_by_element) return 0;
  int64_t gap = lane_stride < 0 ? -lane_stride : lane_stride;
  uint32_t width = q.width;
  while (width < 16 && gap % (2 * width) == 0) width *= 2;
  return width > q.width ? width : 0;
}

}  // namespace

std::string BlockShape::describe() const {
  if (!x) return "";
  std::string out = "blockDim = (" + std::to_string(*x);
  if (y) out += ", " + std::to_string(*y);
  if (z) out += ", " + std::to_string(*z);
  return out + ")";
}

uint32_t sectors_for_stride(uint32_t lanes, int64_t stride, uint32_t width) {
  std::vector<Wide> addresses;
  for (uint32_t lane = 0; lane < lanes; ++lane) addresses.push_back(Wide(lane) * stride);
  return count_sectors(addresses, width, 0);
}

WarpEstimate estimate_warp(const WarpQuery& q) {
  WarpEstimate out;
  Poly offset = resolved_offset(q);
  LaneEvaluator ev(q);
  WarpLayout layout = warp_layout(q.block);
  describe_lane_stride(q, offset, layout, ev, out);

  GuardParts guard_parts = split_guards(q, ev);
  WarpSimulator simulator(q, offset, layout, guard_parts, ev);
  int warps = warps_to_simulate(q.block, layout);

  // An address that varies per lane through something not modelled cannot be simulated; but
  // when the guards leave one lane per warp (`if (warp.thread_rank() == 0) x[ids[b]]`) it is a
  // single-lane access whatever its address.
  if (q.atoms->variation(offset) == Variation::Varying) {
    uint32_t most = 0;
    for (int w = 0; w < warps; ++w) most = std::max(most, simulator.active_lanes(w));
    out.pattern = most <= 1 ? LanePattern::SingleLane : LanePattern::DataDependent;
    out.active_lanes = most;
    if (most > 1) out.gather_index = gather_index_of(*q.atoms, offset);
    out.gather_from_shared = reads_shared(*q.atoms, offset);
    return out;
  }

  // An index the lanes loaded: a row choice when every lane of a warp read it at one address
  // (`slot[warp_id]`), a gather when lanes read it at different ones (`table[ids[tid]]`).
  std::vector<AtomId> loaded;
  loaded_indices(*q.atoms, offset, loaded);
  std::vector<uint32_t> active(loaded.empty() ? 0 : warps);
  for (int w = 0; w < static_cast<int>(active.size()); ++w) active[w] = simulator.active_lanes(w);
  for (AtomId a : loaded) {
    for (int w = 0; w < warps; ++w) {
      if (active[w] <= 1 || simulator.uniform_over_active_lanes(w, (*q.atoms)[a].inner)) continue;
      out.pattern = LanePattern::DataDependent;
      out.active_lanes = active[w];
      out.gather_index = (*q.atoms)[a].name;
      out.gather_from_shared = reads_shared(*q.atoms, offset);
      return out;
    }
  }

  WarpSim worst;
  WarpOutcome outcome = simulate_block(simulator, warps, worst);
  if (outcome == WarpOutcome::AddressUnknown) {
    out.pattern = LanePattern::Unknown;
    return out;
  }
  // Every lane of every warp simulated is guarded off.
  if (outcome == WarpOutcome::NoActiveLane) {
    out.pattern = LanePattern::SingleLane;
    out.active_lanes = 0;
    return out;
  }
  report_worst_warp(worst, out);
  if (out.pattern == LanePattern::Estimated && !q.shared) simulate_row_starts(q, offset, ev, simulator, warps, out);
  // Shared memory: an unrolled loop over a lane's consecutive elements is one vector access per
  // lane (measured: 8-byte pairs of 72-byte structs conflict-free, 16-byte runs of 256-byte rows
  // 8-way), whose wavefronts are what the warp pays.
  // nvcc widens only what it can prove aligned: not across a stride known at run time.
  if (out.pattern == LanePattern::Estimated && q.shared && out.lane_stride && !out.runtime_stride) {
    if (uint32_t vector = loop_vector_width(q, offset, ev, *out.lane_stride)) {
      WarpQuery widened = q;
      widened.width = vector;
      WarpSimulator wide(widened, offset, layout, guard_parts, ev);
      WarpSim worst_vector;
      if (simulate_block(wide, warps, worst_vector) == WarpOutcome::Simulated) {
        out.wavefronts = worst_vector.wavefronts;
        out.ideal_wavefronts = worst_vector.ideal_wavefronts;
        out.loop_vector_width = vector;
      }
    }
  }
  return out;
}

}  // namespace kl::analyzers
