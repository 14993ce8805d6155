// Races between the threads of a block, found by enumeration (model/shared_hazards.h), and which
// PTX instructions are barriers (model/barrier_calls.h).
#include <catch2/catch.hpp>

#include "analyzers/model/barrier_calls.h"
#include "analyzers/model/shared_hazards.h"

using namespace kl::analyzers;

namespace {

struct Setup {
  AtomTable atoms;
  AtomId tx, ty, n, k;
  std::map<AtomId, int64_t> trips;
  std::map<AtomId, LoopSequence> sequences;
  Setup() {
    Atom t;
    t.kind = AtomKind::ThreadIdx;
    t.variation = Variation::Lane;
    t.name = "threadIdx.x";
    tx = atoms.intern("threadIdx.x", t);
    t.dim = 1;
    t.name = "threadIdx.y";
    ty = atoms.intern("threadIdx.y", t);
    Atom p;
    p.kind = AtomKind::Parameter;
    p.name = "n";
    n = atoms.intern("param:n", p);
    Atom i;
    i.kind = AtomKind::Induction;
    i.name = "k";
    k = atoms.add(i);
  }
  HazardDomain domain(std::optional<uint32_t> x, std::optional<uint32_t> y = std::nullopt) {
    HazardDomain d;
    d.atoms = &atoms;
    d.block.x = x;
    d.block.y = y;
    d.trip_counts = &trips;
    d.sequences = &sequences;
    return d;
  }
  Poly t(int64_t c = 1) const { return Poly::atom(tx, c); }
};

Poly plus(const Poly& a, const Poly& b) { return *a.plus(b); }

}  // namespace

TEST_CASE("hazards: a neighbour read races with the neighbour's write; its own slot does not") {
  Setup s;
  SharedTouchForm write{s.t(4), 4, {}};
  SharedTouchForm neighbour{plus(s.t(4), Poly::constant(4)), 4, {}};
  auto w = find_shared_hazard(s.domain(256), write, neighbour);
  REQUIRE(w);
  CHECK(w->first_thread[0] == w->second_thread[0] + 1);
  CHECK_FALSE(w->same_warp);  // thread 32's write and thread 31's read: across warps
  CHECK_FALSE(w->block_assumed);
  CHECK_FALSE(find_shared_hazard(s.domain(256), write, write));
}

TEST_CASE("hazards: a transpose through a tile pairs (x, y) with (y, x)") {
  Setup s;
  Poly row_major = plus(Poly::atom(s.ty, 33 * 4), s.t(4));
  Poly column = plus(Poly::atom(s.ty, 4), s.t(33 * 4));
  auto w = find_shared_hazard(s.domain(32, 8), {row_major, 4, {}}, {column, 4, {}});
  REQUIRE(w);
  CHECK(w->first_thread[0] == w->second_thread[1]);
  CHECK(w->first_thread[1] == w->second_thread[0]);
}

TEST_CASE("hazards: guards restrict the threads; an unevaluable guard or a runtime offset is not judged") {
  Setup s;
  // if (t < 32) s[t] = ...; then s[t + 32] read by every thread: thread 0's write meets no reader
  // of another thread... but thread 32 reads nothing written (writers are 0..31, readers read 32..).
  SharedTouchForm low_write{s.t(4), 4, {{plus(s.t(), Poly::constant(-32)), LaneGuard::Op::Lt}}};
  SharedTouchForm high_read{plus(s.t(4), Poly::constant(128)), 4, {}};
  CHECK_FALSE(find_shared_hazard(s.domain(64), low_write, high_read));
  SharedTouchForm param_guard{s.t(4), 4, {{plus(s.t(), Poly::atom(s.n, -1)), LaneGuard::Op::Lt}}};
  CHECK_FALSE(find_shared_hazard(s.domain(64), param_guard, {plus(s.t(4), Poly::constant(4)), 4, {}}));
  SharedTouchForm strided{*Poly::atom(s.tx).times(Poly::atom(s.n)), 4, {}};
  CHECK_FALSE(find_shared_hazard(s.domain(64), strided, {Poly::constant(0), 4, {}}));
  // The same uniform part on both sides cancels: s[n + t] against s[n + t + 1].
  Poly base = Poly::atom(s.n, 4);
  CHECK(find_shared_hazard(s.domain(64), {plus(base, s.t(4)), 4, {}},
                           {plus(plus(base, s.t(4)), Poly::constant(4)), 4, {}}));
}

TEST_CASE("hazards: lanes of one warp only are flagged as such; an unknown block is assumed") {
  Setup s;
  // With no launch, 8 threads are assumed: a witness must fit in them.
  auto w = find_shared_hazard(s.domain(std::nullopt), {s.t(4), 4, {}}, {plus(s.t(4), Poly::constant(16)), 4, {}});
  REQUIRE(w);
  CHECK(w->block_assumed);
  CHECK(w->same_warp);
  CHECK_FALSE(find_shared_hazard(s.domain(std::nullopt), {s.t(4), 4, {}}, {plus(s.t(4), Poly::constant(64)), 4, {}}));
}

TEST_CASE("hazards: iterations with a known trip count are enumerated, geometric steps by their values") {
  Setup s;
  s.trips[s.k] = 4;
  // tile[k * 8 + ty][tx] written, tile[tx][k * 8 + ty] read (a transpose in a loop of 4 rounds).
  Poly row = plus(plus(Poly::atom(s.k, 8 * 32 * 4), Poly::atom(s.ty, 32 * 4)), s.t(4));
  Poly col = plus(plus(Poly::atom(s.k, 8 * 4), Poly::atom(s.ty, 4)), s.t(32 * 4));
  CHECK(find_shared_hazard(s.domain(32, 8), {row, 4, {}}, {col, 4, {}}));
  // The reduction tree: s[t] written under t < stride, s[t + stride'] read next round under t < stride'.
  Atom g;
  g.kind = AtomKind::Opaque;
  g.name = "stride";
  AtomId stride = s.atoms.add(g);
  AtomId next = s.atoms.add(g);
  s.sequences[stride] = LoopSequence{s.k, {128, 64, 32, 16}, 0};
  s.sequences[next] = LoopSequence{s.k, {128, 64, 32, 16}, 1};
  SharedTouchForm write{s.t(4), 4, {{plus(s.t(), Poly::atom(stride, -1)), LaneGuard::Op::Lt}}};
  SharedTouchForm read_next{plus(s.t(4), Poly::atom(next, 4)), 4, {{plus(s.t(), Poly::atom(next, -1)), LaneGuard::Op::Lt}}};
  auto w = find_shared_hazard(s.domain(256), write, read_next);
  REQUIRE(w);
  CHECK(w->needs_iterations == false);  // the first round already pairs 64..127 with 0..63
  // Within one round, s[t] against s[t + stride]: the writers (t < stride) never reach stride.
  SharedTouchForm read_same{plus(s.t(4), Poly::atom(stride, 4)), 4, {{plus(s.t(), Poly::atom(stride, -1)), LaneGuard::Op::Lt}}};
  CHECK_FALSE(find_shared_hazard(s.domain(256), write, read_same));
}

TEST_CASE("guards_split_block: a thread-index test splits the block unless every thread agrees") {
  Setup s;
  bool assumed = false;
  std::vector<LaneGuard> half{{plus(s.t(), Poly::constant(-128)), LaneGuard::Op::Lt}};
  CHECK(guards_split_block(s.domain(256), half, assumed) == std::optional<bool>(true));
  CHECK_FALSE(assumed);
  CHECK(guards_split_block(s.domain(128), half, assumed) == std::optional<bool>(false));
  // With no launch, the largest block is asked: 1,024 threads split at 128, none at 2,048.
  CHECK(guards_split_block(s.domain(std::nullopt), half, assumed) == std::optional<bool>(true));
  CHECK(assumed);
  std::vector<LaneGuard> never{{plus(s.t(), Poly::constant(-2048)), LaneGuard::Op::Lt}};
  CHECK(guards_split_block(s.domain(std::nullopt), never, assumed) == std::optional<bool>(false));
  std::vector<LaneGuard> on_n{{plus(s.t(), Poly::atom(s.n, -1)), LaneGuard::Op::Lt}};
  CHECK_FALSE(guards_split_block(s.domain(256), on_n, assumed));
}

TEST_CASE("ptx barriers: bar.sync and barrier.sync for the block, counts for a subset, warp barriers") {
  std::string spelling;
  CHECK(ptx_barrier("bar.sync 0;", spelling) == BarrierScope::Block);
  CHECK(spelling == "bar.sync 0");
  CHECK(ptx_barrier_aligned(spelling));
  CHECK(ptx_barrier("barrier.sync 0;", spelling) == BarrierScope::Block);
  CHECK_FALSE(ptx_barrier_aligned(spelling));
  CHECK(ptx_barrier("bar.sync 1, 128;", spelling) == BarrierScope::Subset);
  CHECK(ptx_barrier("bar.red.popc.u32 %0, 0, %1;", spelling) == BarrierScope::Block);
  CHECK(ptx_barrier("bar.arrive 2, 64;", spelling) == BarrierScope::Subset);
  CHECK(ptx_barrier("bar.warp.sync -1;", spelling) == BarrierScope::Warp);
  CHECK(ptx_barrier("ld.shared.f32 %0, [%1];\n st.shared.f32 [%1], %2;", spelling) == BarrierScope::None);
  CHECK(wider_barrier(BarrierScope::Warp, BarrierScope::Block) == BarrierScope::Block);
}
