#include "analyzers/model/alignment_congruence.h"

#include <algorithm>

namespace kl::analyzers {
namespace {

int64_t mod_pow2(int64_t value, int bits) {
  if (bits <= 0) return 0;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  return static_cast<int64_t>(static_cast<uint64_t>(value) & mask);
}

// Valuation of the residue within its modulus: a residue of 0 mod 2^bits is divisible by 2^bits.
int residue_valuation(const Congruence& c) {
  if (c.residue == 0) return c.bits;
  return std::min(two_adic_valuation(c.residue), c.bits);
}

}  // namespace

int two_adic_valuation(int64_t value) {
  if (value == 0) return Congruence::kMaxBits;
  int v = __builtin_ctzll(static_cast<uint64_t>(value));
  return std::min(v, Congruence::kMaxBits);
}

Congruence Congruence::make(int bits, int64_t residue) {
  Congruence c;
  c.bits = std::clamp(bits, 0, kMaxBits);
  c.residue = mod_pow2(residue, c.bits);
  return c;
}

Congruence Congruence::constant(int64_t value) { return make(kMaxBits, value); }

Congruence Congruence::multiple_of(uint64_t alignment) {
  if (alignment <= 1) return unknown();
  int bits = 63 - __builtin_clzll(alignment);
  return make(bits, 0);
}

Congruence Congruence::operator+(const Congruence& other) const {
  return make(std::min(bits, other.bits), residue + other.residue);
}

Congruence Congruence::operator-(const Congruence& other) const {
  return make(std::min(bits, other.bits), residue - other.residue);
}

Congruence Congruence::operator*(const Congruence& other) const {
  // x = r + 2^m s, y = q + 2^n t: xy = rq + r 2^n t + q 2^m s + 2^(m+n) st.
  int m = bits, n = other.bits;
  int k = m + n;
  if (residue != 0) k = std::min(k, two_adic_valuation(residue) + n);
  if (other.residue != 0) k = std::min(k, two_adic_valuation(other.residue) + m);
  k = std::min(k, kMaxBits);
  __int128 product = static_cast<__int128>(residue) * other.residue;
  return make(k, static_cast<int64_t>(product & ((static_cast<__int128>(1) << kMaxBits) - 1)));
}

Congruence Congruence::scaled(int64_t factor) const { return *this * constant(factor); }

Congruence Congruence::join(const Congruence& a, const Congruence& b) {
  int k = std::min(a.bits, b.bits);
  int64_t diff = mod_pow2(a.residue - b.residue, k);
  if (diff != 0) k = std::min(k, two_adic_valuation(diff));
  return make(k, a.residue);
}

std::optional<Congruence> Congruence::meet(const Congruence& a, const Congruence& b) {
  int k = std::min(a.bits, b.bits);
  if (mod_pow2(a.residue - b.residue, k) != 0) return std::nullopt;
  return a.bits >= b.bits ? a : b;
}

bool Congruence::divisible_by(uint64_t alignment) const {
  if (alignment <= 1) return true;
  int need = 63 - __builtin_clzll(alignment);
  return bits >= need && mod_pow2(residue, need) == 0;
}

std::optional<int64_t> Congruence::residue_mod(uint64_t alignment) const {
  if (alignment <= 1) return 0;
  int need = 63 - __builtin_clzll(alignment);
  if (bits < need) return std::nullopt;
  return mod_pow2(residue, need);
}

uint64_t Congruence::known_alignment() const { return uint64_t{1} << residue_valuation(*this); }

std::string Congruence::describe() const {
  if (bits == 0) return "unknown";
  return "≡ " + std::to_string(residue) + " (mod " + std::to_string(uint64_t{1} << bits) + ")";
}

std::optional<Congruence> solve_linear(int64_t c, int64_t d, const Congruence& rhs) {
  // c·a ≡ rhs − d (mod 2^k); c = 2^j·u with u odd.
  int k = rhs.bits;
  if (k == 0 || c == 0) return std::nullopt;
  int j = two_adic_valuation(c);
  if (j >= k) return std::nullopt;
  int64_t target = mod_pow2(rhs.residue - d, k);
  if (mod_pow2(target, j) != 0) return std::nullopt;  // no solution: the caller's path is dead
  int bits = k - j;
  int64_t u = c >> j;
  // Inverse of the odd u modulo 2^bits by Newton's iteration.
  uint64_t inverse = static_cast<uint64_t>(u);
  for (int i = 0; i < 6; ++i) inverse *= 2 - static_cast<uint64_t>(u) * inverse;
  int64_t a = static_cast<int64_t>(static_cast<uint64_t>(target >> j) * inverse);
  return Congruence::make(bits, a);
}

}  // namespace kl::analyzers
