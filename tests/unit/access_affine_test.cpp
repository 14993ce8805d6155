// Symbolic forms of the access model (model/affine_form.h): polynomials over atoms with the
// algebra the index arithmetic of kernels needs.
#include <catch2/catch.hpp>

#include "analyzers/model/affine_form.h"

using namespace kl::analyzers;

namespace {

struct Atoms {
  AtomTable table;
  AtomId tid, bid, bdim, n, ld;
  Atoms() {
    Atom t;
    t.kind = AtomKind::ThreadIdx;
    t.variation = Variation::Lane;
    t.name = "threadIdx.x";
    tid = table.intern("threadIdx.x", t);
    Atom b;
    b.kind = AtomKind::BlockIdx;
    b.name = "blockIdx.x";
    bid = table.intern("blockIdx.x", b);
    Atom d;
    d.kind = AtomKind::BlockDim;
    d.name = "blockDim.x";
    d.congruence = Congruence::multiple_of(32);
    bdim = table.intern("blockDim.x", d);
    Atom p;
    p.kind = AtomKind::Parameter;
    p.name = "n";
    p.parameter_like = true;
    n = table.intern("param:n", p);
    p.name = "ld";
    ld = table.intern("param:ld", p);
  }
};

}  // namespace

TEST_CASE("row * n keeps n as the coefficient of row") {
  Atoms a;
  // i = blockIdx.x * blockDim.x + threadIdx.x; address = 4 * (i * ld + n)
  Poly i = *Poly::atom(a.bid).times(Poly::atom(a.bdim))->plus(Poly::atom(a.tid));
  Poly index = *i.times(Poly::atom(a.ld))->plus(Poly::atom(a.n));
  Poly bytes = *index.scaled(4);
  CHECK(bytes.derivative(a.tid) == *Poly::atom(a.ld).scaled(4));
  CHECK(a.table.print(bytes.derivative(a.tid)) == "4 * ld");
  CHECK(a.table.variation(bytes) == Variation::Lane);
  CHECK(a.table.variation(Poly::atom(a.n)) == Variation::Uniform);
}

TEST_CASE("terms combine and cancel") {
  Atoms a;
  Poly p = *Poly::atom(a.tid, 3).plus(Poly::constant(5));
  Poly q = *Poly::atom(a.tid, -3).plus(Poly::constant(1));
  Poly s = *p.plus(q);
  CHECK(s.constant_value() == 6);
  CHECK(p.minus(p)->is_zero());
  CHECK(a.table.print(p) == "3 * threadIdx.x + 5");
}

TEST_CASE("x % k is x - k * floor(x / k), so quotient and remainder recombine") {
  Atoms a;
  // idx / n * n + idx % n == idx, with idx = blockIdx.x * blockDim.x + threadIdx.x
  Poly idx = *Poly::atom(a.bid).times(Poly::atom(a.bdim))->plus(Poly::atom(a.tid));
  AtomId q = a.table.quotient(idx, Poly::atom(a.n));
  Poly row = Poly::atom(q);
  Poly col = *idx.minus(*row.times(Poly::atom(a.n)));
  Poly back = *row.times(Poly::atom(a.n))->plus(col);
  CHECK(back == idx);
  // the same quotient is interned once
  CHECK(a.table.quotient(idx, Poly::atom(a.n)) == q);
  // a quotient by a runtime value is piecewise, by a constant a lane function
  CHECK(a.table[q].variation == Variation::Piecewise);
  CHECK(a.table[a.table.quotient(Poly::atom(a.tid), Poly::constant(32))].variation == Variation::Lane);
  // tid % 32 keeps coefficient 1 on tid
  AtomId w = a.table.quotient(Poly::atom(a.tid), Poly::constant(32));
  Poly lane = *Poly::atom(a.tid).minus(Poly::atom(w, 32));
  CHECK(lane.derivative(a.tid).constant_value() == 1);
}

TEST_CASE("exact division and division by an atom") {
  Atoms a;
  Poly p = *Poly::atom(a.tid, 8).plus(Poly::constant(16));
  CHECK(p.divided_exactly(4) == *Poly::atom(a.tid, 2).plus(Poly::constant(4)));
  CHECK_FALSE(p.divided_exactly(16).has_value());
  Poly q = *Poly::atom(a.tid).times(Poly::atom(a.n));
  CHECK(q.divided_by_atom(a.n) == Poly::atom(a.tid));
  CHECK_FALSE(p.divided_by_atom(a.n).has_value());
}

TEST_CASE("overflow and growth fail instead of wrapping") {
  Atoms a;
  Poly big = Poly::constant(INT64_MAX / 2);
  CHECK_FALSE(big.scaled(4).has_value());
  Poly deg = Poly::atom(a.n);
  for (int i = 0; i < 3; ++i) deg = *deg.times(Poly::atom(a.n));
  CHECK(deg.degree() == 4);
  CHECK_FALSE(deg.times(Poly::atom(a.n)).has_value());
}

TEST_CASE("congruence of a form follows its atoms and the path's facts") {
  Atoms a;
  // 4 * blockDim.x * blockIdx.x is a multiple of 128 (blockDim.x ≡ 0 mod 32)
  Poly p = *Poly::atom(a.bdim, 4).times(Poly::atom(a.bid));
  CHECK(congruence_of(a.table, p).divisible_by(128));
  // 4 * row * n: aligned to 16 only once n % 4 == 0 is known
  Poly rn = *Poly::atom(a.bid, 4).times(Poly::atom(a.n));
  CHECK_FALSE(congruence_of(a.table, rn).divisible_by(16));
  PathFacts facts;
  facts.add_congruence(a.table, Poly::atom(a.n), Congruence::make(2, 0));
  CHECK(congruence_of(a.table, rn, &facts).divisible_by(16));
  // a fact on a whole form: (row * n) % 8 == 0 makes 2 * row * n + 16 * tid a multiple of 16
  PathFacts form_fact;
  Poly row_n = *Poly::atom(a.bid).times(Poly::atom(a.n));
  form_fact.add_congruence(a.table, row_n, Congruence::make(3, 0));
  Poly addr = *row_n.scaled(2)->plus(Poly::atom(a.tid, 16));
  CHECK(congruence_of(a.table, addr, &form_fact).divisible_by(16));
  // joins keep only common facts
  PathFacts other;
  CHECK(PathFacts::join(facts, other).congruences.empty());
}

TEST_CASE("known values replace atoms") {
  Atoms a;
  PathFacts facts;
  facts.add_value(a.bdim, 16);
  Poly p = *Poly::atom(a.bdim).times(Poly::atom(a.bid))->plus(Poly::atom(a.tid));
  Poly q = with_known_values(p, facts);
  CHECK_FALSE(q.mentions(a.bdim));
  CHECK(q.derivative(a.bid).constant_value() == 16);
}
