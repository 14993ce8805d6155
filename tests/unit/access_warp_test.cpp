// The warp-request estimator (model/access_warp.h): how many 32-byte sectors the lanes of one
// warp touch, for the index patterns kernels are written with.
#include <catch2/catch.hpp>

#include "analyzers/model/access_warp.h"

using namespace kl::analyzers;

namespace {

struct Setup {
  AtomTable atoms;
  AtomId tx, ty, bx, bid, n;
  Setup() {
    Atom t;
    t.kind = AtomKind::ThreadIdx;
    t.variation = Variation::Lane;
    t.name = "threadIdx.x";
    tx = atoms.intern("threadIdx.x", t);
    t.dim = 1;
    t.name = "threadIdx.y";
    ty = atoms.intern("threadIdx.y", t);
    Atom d;
    d.kind = AtomKind::BlockDim;
    d.name = "blockDim.x";
    d.congruence = Congruence::multiple_of(32);
    bx = atoms.intern("blockDim.x", d);
    Atom b;
    b.kind = AtomKind::BlockIdx;
    b.name = "blockIdx.x";
    bid = atoms.intern("blockIdx.x", b);
    Atom p;
    p.kind = AtomKind::Parameter;
    p.name = "n";
    n = atoms.intern("param:n", p);
  }
  WarpQuery query(Poly offset, uint32_t width = 4) {
    WarpQuery q;
    q.atoms = &atoms;
    q.offset = std::move(offset);
    q.width = width;
    q.element_size = width;
    q.thread_atoms[0] = tx;
    q.thread_atoms[1] = ty;
    q.block_dim_atoms[0] = bx;
    return q;
  }
  // bytes(element index) for 4-byte elements
  Poly f(Poly index, int64_t size = 4) { return *index.scaled(size); }
  Poly gid() { return *Poly::atom(bid).times(Poly::atom(bx))->plus(Poly::atom(tx)); }
};

}  // namespace

TEST_CASE("unit stride of 4-byte elements: 4 sectors, coalesced") {
  Setup s;
  WarpEstimate w = estimate_warp(s.query(s.f(s.gid())));
  CHECK(w.pattern == LanePattern::Estimated);
  CHECK(w.sectors == 4);
  CHECK(w.ideal_sectors == 4);
  CHECK(w.lane_stride == 4);
}

TEST_CASE("8- and 16-byte elements at unit stride are coalesced") {
  Setup s;
  WarpEstimate w8 = estimate_warp(s.query(s.f(s.gid(), 8), 8));
  CHECK(w8.sectors == w8.ideal_sectors);
  WarpEstimate w16 = estimate_warp(s.query(s.f(s.gid(), 16), 16));
  CHECK(w16.sectors == 16);
  CHECK(w16.sectors == w16.ideal_sectors);
}

TEST_CASE("stride 32 floats: one sector per lane") {
  Setup s;
  WarpEstimate w = estimate_warp(s.query(s.f(*Poly::atom(s.tx).scaled(32))));
  CHECK(w.sectors == 32);
  CHECK(w.ideal_sectors == 4);
  CHECK(w.lane_stride == 128);
}

TEST_CASE("a runtime stride is reported by name, counted as far apart") {
  Setup s;
  WarpEstimate w = estimate_warp(s.query(s.f(*Poly::atom(s.tx).times(Poly::atom(s.n)))));
  CHECK(w.runtime_stride);
  CHECK(w.stride_text == "n");
  CHECK(w.stride_in_elements);
  CHECK(w.sectors == 32);
}

TEST_CASE("a broadcast touches one sector") {
  Setup s;
  WarpEstimate w = estimate_warp(s.query(s.f(Poly::atom(s.bid))));
  CHECK(w.pattern == LanePattern::Uniform);
  CHECK(w.sectors == 1);
}

TEST_CASE("threadIdx.y is warp-uniform unless blockDim.x < 32") {
  Setup s;
  // in[ty * n + tx * 32]? no: in[tx * n + ty] with blockDim.x unknown: y is uniform.
  Poly addr = s.f(*Poly::atom(s.ty).times(Poly::atom(s.n))->plus(Poly::atom(s.tx)));
  CHECK(estimate_warp(s.query(addr)).sectors == 4);
  // The same row-major walk with blockDim = (16, 16): two rows of 64 bytes, still 4 sectors.
  WarpQuery q = s.query(addr);
  q.block.x = 16;
  q.block.y = 16;
  WarpEstimate w = estimate_warp(q);
  CHECK(w.sectors == 4);
  // Column walk with blockDim = (16, 16): lanes 16 rows apart in x.
  Poly col = s.f(*Poly::atom(s.tx).times(Poly::atom(s.n))->plus(Poly::atom(s.ty)));
  WarpQuery qc = s.query(col);
  qc.block.x = 16;
  qc.block.y = 16;
  CHECK(estimate_warp(qc).sectors >= 16);
  // A warp of blockDim = (4, 64) covers 8 rows of 16 bytes: 8 sectors where 4 would do.
  WarpQuery narrow = s.query(addr);
  narrow.block.x = 4;
  narrow.block.y = 64;
  WarpEstimate wn = estimate_warp(narrow);
  CHECK(wn.sectors == 8);
  CHECK(wn.ideal_sectors == 4);
}

TEST_CASE("warp-per-row: tid / 32 is uniform, tid % 32 is the lane") {
  Setup s;
  AtomId warp = s.atoms.quotient(Poly::atom(s.tx), Poly::constant(32));
  Poly lane = *Poly::atom(s.tx).minus(Poly::atom(warp, 32));
  Poly addr = s.f(*Poly::atom(warp).times(Poly::atom(s.n))->plus(lane));
  WarpEstimate w = estimate_warp(s.query(addr));
  CHECK(w.sectors == 4);
  CHECK(w.lane_stride == 4);
  // Lanes walking rows: in[lane * n + warp]
  Poly bad = s.f(*lane.times(Poly::atom(s.n))->plus(Poly::atom(warp)));
  CHECK(estimate_warp(s.query(bad)).sectors == 32);
}

TEST_CASE("groups of 8 lanes reading 32 contiguous bytes each are not wasteful") {
  Setup s;
  AtomId group = s.atoms.quotient(Poly::atom(s.tx), Poly::constant(8));
  Poly g = *Poly::atom(s.tx).minus(Poly::atom(group, 8));
  Poly addr = s.f(*Poly::atom(group).times(Poly::atom(s.n))->plus(g));
  WarpEstimate w = estimate_warp(s.query(addr));
  CHECK(w.sectors == 4);
  CHECK(w.ideal_sectors == 4);
}

TEST_CASE("a constant offset straddles one more sector, which sectors_if_aligned discounts") {
  Setup s;
  WarpEstimate w = estimate_warp(s.query(s.f(*s.gid().plus(Poly::constant(1)))));
  CHECK(w.sectors == 5);
  CHECK(w.sectors_if_aligned == 4);
}

TEST_CASE("guards: one lane active, or half of the warp") {
  Setup s;
  WarpQuery q = s.query(s.f(*Poly::atom(s.tx).scaled(32)));
  q.guards.push_back({Poly::atom(s.tx), LaneGuard::Op::Eq});  // threadIdx.x == 0
  CHECK(estimate_warp(q).pattern == LanePattern::SingleLane);
  WarpQuery h = s.query(s.f(*Poly::atom(s.tx).scaled(32)));
  h.guards.push_back({*Poly::atom(s.tx).minus(Poly::constant(16)), LaneGuard::Op::Lt});  // threadIdx.x < 16
  WarpEstimate w = estimate_warp(h);
  CHECK(w.active_lanes == 16);
  CHECK(w.sectors == 16);
  CHECK(w.ideal_sectors == 2);
  // A guard on the global index (blockIdx.x * blockDim.x + threadIdx.x == 0) also leaves one lane.
  WarpQuery g = s.query(s.f(*Poly::atom(s.tx).scaled(32)));
  g.guards.push_back({s.gid(), LaneGuard::Op::Eq});
  CHECK(estimate_warp(g).pattern == LanePattern::SingleLane);
}

TEST_CASE("data-dependent addresses are not judged") {
  Setup s;
  Atom loaded;
  loaded.kind = AtomKind::Opaque;
  loaded.variation = Variation::Varying;
  loaded.name = "ids[i]";
  AtomId id = s.atoms.add(loaded);
  CHECK(estimate_warp(s.query(s.f(Poly::atom(id)))).pattern == LanePattern::DataDependent);
}
