// The congruence domain of the alignment analysis (model/alignment_congruence.h), read as a
// specification: what is known of a value modulo powers of two after arithmetic and joins.
#include <catch2/catch.hpp>

#include "analyzers/model/alignment_congruence.h"

using kl::analyzers::Congruence;
using kl::analyzers::solve_linear;
using kl::analyzers::two_adic_valuation;

TEST_CASE("constants are exact for alignment purposes") {
  Congruence c = Congruence::constant(20);
  CHECK(c.divisible_by(4));
  CHECK_FALSE(c.divisible_by(8));
  CHECK(c.residue_mod(16) == 4);
  CHECK(Congruence::constant(-4).residue_mod(16) == 12);
}

TEST_CASE("unknown values say nothing") {
  Congruence u = Congruence::unknown();
  CHECK_FALSE(u.divisible_by(2));
  CHECK_FALSE(u.residue_mod(2).has_value());
  CHECK(u.divisible_by(1));
}

TEST_CASE("a product gains the factors' powers of two") {
  // 4 * unknown is a multiple of 4, not known mod 8.
  Congruence p = Congruence::constant(4) * Congruence::unknown();
  CHECK(p.divisible_by(4));
  CHECK_FALSE(p.residue_mod(8).has_value());
  // (0 mod 8) * (0 mod 4) is 0 mod 32.
  Congruence q = Congruence::multiple_of(8) * Congruence::multiple_of(4);
  CHECK(q.divisible_by(32));
  // (1 mod 2) * 4 = 4 mod 8.
  Congruence odd = Congruence::make(1, 1);
  CHECK((odd * Congruence::constant(4)).residue_mod(8) == 4);
}

TEST_CASE("a sum keeps the smaller modulus") {
  Congruence s = Congruence::multiple_of(256) + Congruence::constant(4);
  CHECK(s.residue_mod(16) == 4);
  CHECK(s.residue_mod(256) == 4);
  Congruence t = Congruence::multiple_of(16) + Congruence::multiple_of(4);
  CHECK(t.divisible_by(4));
  CHECK_FALSE(t.residue_mod(8).has_value());
}

TEST_CASE("a join keeps what both paths agree on") {
  Congruence j = Congruence::join(Congruence::constant(0), Congruence::constant(16));
  CHECK(j.divisible_by(16));
  CHECK_FALSE(j.divisible_by(32));
  Congruence k = Congruence::join(Congruence::constant(4), Congruence::constant(12));
  CHECK(k.residue_mod(8) == 4);
}

TEST_CASE("a meet combines facts and detects contradictions") {
  auto m = Congruence::meet(Congruence::multiple_of(4), Congruence::make(4, 8));
  REQUIRE(m);
  CHECK(m->residue_mod(16) == 8);
  CHECK_FALSE(Congruence::meet(Congruence::make(2, 1), Congruence::make(2, 2)).has_value());
}

TEST_CASE("linear facts are solved for the atom") {
  // 2·a ≡ 0 (mod 16)  =>  a ≡ 0 (mod 8)
  auto a = solve_linear(2, 0, Congruence::make(4, 0));
  REQUIRE(a);
  CHECK(a->divisible_by(8));
  // 3·a + 1 ≡ 4 (mod 8)  =>  a ≡ 1 (mod 8)
  auto b = solve_linear(3, 1, Congruence::make(3, 4));
  REQUIRE(b);
  CHECK(b->residue_mod(8) == 1);
  // 4·a ≡ 2 (mod 8) has no solution.
  CHECK_FALSE(solve_linear(4, 0, Congruence::make(3, 2)).has_value());
  CHECK(two_adic_valuation(48) == 4);
}
