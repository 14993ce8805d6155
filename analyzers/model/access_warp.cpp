#include "analyzers/model/access_warp.h"

#include <algorithm>
#include <functional>
#include <set>

namespace kl::analyzers {
namespace {

using Wide = __int128;

Wide floor_div(Wide a, Wide b) {
  Wide q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

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

  std::optional<Wide> eval(const Poly& p) const {
    Wide sum = 0;
    for (const auto& t : p.terms()) {
      Wide term = t.coefficient;
      for (AtomId a : t.atoms) {
        auto v = value(a);
        if (!v) return std::nullopt;
        term *= *v;
      }
      sum += term;
    }
    return sum;
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
    if (atom.kind == AtomKind::Quotient && atom.divisor.is_constant()) return lane_dependent(atom.inner);
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
        if (atom.divisor.is_constant() && lane_dependent(atom.inner)) {
          int64_t d = atom.divisor.constant_term();
          if (d == 0) return std::nullopt;
          auto inner = eval(atom.inner);
          if (!inner) return std::nullopt;
          return floor_div(*inner, d);
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
    return Wide(1024) * Wide(1001 + 2 * static_cast<int64_t>(a)) + residue;
  }

  const WarpQuery& q_;
  const AtomTable& atoms_;
  LaneCoords lane_;

 public:
  // A value every launch in the file passes as the same constant (its congruence is exact).
  std::optional<int64_t> exact_value(AtomId a) const {
    const Atom& atom = atoms_[a];
    if (atom.kind != AtomKind::Parameter || atom.congruence.bits < Congruence::kMaxBits) return std::nullopt;
    int64_t r = atom.congruence.residue;
    if (r >= (int64_t{1} << (Congruence::kMaxBits - 1))) r -= int64_t{1} << Congruence::kMaxBits;
    return r;
  }
};

struct WarpSim {
  uint32_t sectors = 0, ideal = 0, aligned = 0, active = 0, shift = 0;
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

}  // namespace

std::string BlockShape::describe() const {
  if (!x) return "";
  std::string out = "blockDim = (" + std::to_string(*x);
  if (y) out += ", " + std::to_string(*y);
  if (z) out += ", " + std::to_string(*z);
  return out + ")";
}

WarpEstimate estimate_warp(const WarpQuery& q) {
  WarpEstimate out;
  const AtomTable& atoms = *q.atoms;
  Poly offset = q.facts ? with_known_values(q.offset, *q.facts) : q.offset;
  for (int d = 0; d < 3; ++d) {
    const std::optional<uint32_t>& known = d == 0 ? q.block.x : d == 1 ? q.block.y : q.block.z;
    if (known && q.block_dim_atoms[d] != UINT32_MAX && offset.mentions(q.block_dim_atoms[d])) {
      if (auto s = offset.substituted(q.block_dim_atoms[d], Poly::constant(*known))) offset = std::move(*s);
    }
  }
  LaneEvaluator ev(q);

  // Which thread dimensions vary inside a warp.
  bool x_known = q.block.x.has_value();
  uint32_t bx = q.block.x.value_or(0);
  bool y_varies = x_known && bx < 32;
  uint32_t by = q.block.y.value_or(0);
  bool z_varies = y_varies && q.block.y && bx * by < 32;

  // Lane stride along the fastest dimension that the address uses.
  auto stride_along = [&](int dim) -> std::optional<Poly> {
    AtomId t = q.thread_atoms[dim];
    if (t == UINT32_MAX || !offset.mentions(t)) return std::nullopt;
    Poly d = offset.derivative(t);
    if (d.is_zero()) return std::nullopt;
    return d;
  };
  std::optional<Poly> stride = stride_along(0);
  out.lane_dimension = "threadIdx.x";
  if (!stride && y_varies) {
    stride = stride_along(1);
    out.lane_dimension = "threadIdx.y";
  }
  if (!stride && z_varies) {
    stride = stride_along(2);
    out.lane_dimension = "threadIdx.z";
  }
  if (stride) {
    if (auto c = stride->constant_value()) {
      out.lane_stride = *c;
    } else if (!ev.lane_dependent(*stride) && atoms.variation(*stride) != Variation::Varying) {
      out.runtime_stride = true;
      Poly shown = *stride;
      if (q.element_size > 0) {
        if (auto e = stride->divided_exactly(q.element_size)) {
          shown = *e;
          out.stride_in_elements = true;
        }
      }
      out.stride_text = atoms.print(shown);
      // Known at every launch in the file: keep the name, add the value.
      bool exact = true;
      for (AtomId a : stride->atoms()) exact = exact && ev.exact_value(a).has_value();
      if (exact) {
        if (auto v = ev.eval(*stride)) out.lane_stride = static_cast<int64_t>(*v);
      }
    }
  }

  if (atoms.variation(offset) == Variation::Varying) {
    out.pattern = LanePattern::DataDependent;
    // A gather: every per-lane unknown in the address is a value the lane loaded itself (an
    // index array). Anything else (a lost track) stays unjudged.
    std::string first_loaded;
    bool all_loaded = true;
    for (AtomId a : offset.atoms()) {
      if (atoms[a].variation != Variation::Varying) continue;
      if (!atoms[a].loaded) all_loaded = false;
      else if (first_loaded.empty()) first_loaded = atoms[a].name;
    }
    if (all_loaded) out.gather_index = first_loaded;
    return out;
  }

  // Guards split into their thread part and the rest, once.
  std::vector<std::pair<Poly, Poly>> guard_parts;
  for (const auto& g : q.guards) {
    Poly form = q.facts ? with_known_values(g.form, *q.facts) : g.form;
    guard_parts.push_back(form.split([&](AtomId a) { return ev.is_lane_atom(a); }));
  }

  int warps = 1;
  if (x_known) {
    uint64_t threads = uint64_t{bx} * (q.block.y ? *q.block.y : 64) * (q.block.z ? *q.block.z : 1);
    warps = static_cast<int>(std::clamp<uint64_t>((threads + 31) / 32, 1, 4));
  }
  WarpSim worst;
  bool have = false;
  for (int w = 0; w < warps; ++w) {
    WarpSim sim;
    std::vector<Wide> addresses;
    std::vector<std::optional<Wide>> references(q.guards.size());
    for (int lane = 0; lane < 32; ++lane) {
      int64_t l = int64_t{w} * 32 + lane;
      LaneCoords c;
      if (x_known && bx > 0) {
        c.x = l % bx;
        c.y = q.block.y ? (l / bx) % *q.block.y : l / bx;
        c.z = q.block.y && *q.block.y > 0 ? l / (int64_t{bx} * *q.block.y) : 0;
      } else {
        c.x = l;
      }
      ev.set_lane(c);
      bool active = true;
      for (size_t g = 0; g < q.guards.size() && active; ++g) {
        const auto& [lane_part, rest] = guard_parts[g];
        if (!references[g] && !rest.is_constant()) references[g] = ev.eval(lane_part);
        active = guard_holds(ev, q.guards[g], lane_part, rest, references[g]);
      }
      if (!active) continue;
      auto a = ev.eval(offset);
      if (!a) {
        out.pattern = LanePattern::Unknown;
        return out;
      }
      if (lane == 0) sim.lane0 = a;
      if (lane == 1) sim.lane1 = a;
      if (!addresses.empty() && *a != addresses.front()) sim.uniform = false;
      addresses.push_back(*a);
    }
    sim.active = static_cast<uint32_t>(addresses.size());
    if (sim.active == 0) continue;
    sim.sectors = count_sectors(addresses, q.width, 0);
    Wide first = addresses.front();
    Wide shift = first - floor_div(first, 32) * 32;
    sim.aligned = count_sectors(addresses, q.width, shift);
    sim.shift = static_cast<uint32_t>(shift);
    sim.ideal = static_cast<uint32_t>((uint64_t{sim.active} * q.width + 31) / 32);
    int64_t excess = int64_t{sim.sectors} - sim.ideal;
    int64_t worst_excess = int64_t{worst.sectors} - worst.ideal;
    if (!have || excess > worst_excess || (sim.active > 1 && worst.active <= 1)) {
      worst = sim;
      have = true;
    }
  }
  if (!have) {
    out.pattern = LanePattern::SingleLane;
    out.active_lanes = 0;
    return out;
  }
  out.sectors = worst.sectors;
  out.ideal_sectors = worst.ideal;
  out.sectors_if_aligned = worst.aligned;
  out.window_shift = worst.shift;
  out.active_lanes = worst.active;
  if (!out.lane_stride && !out.runtime_stride && worst.lane0 && worst.lane1)
    out.lane_stride = static_cast<int64_t>(*worst.lane1 - *worst.lane0);
  if (worst.active <= 1) out.pattern = LanePattern::SingleLane;
  else if (worst.uniform) out.pattern = LanePattern::Uniform;
  else out.pattern = LanePattern::Estimated;
  return out;
}

}  // namespace kl::analyzers
