#pragma once
// The congruence domain of the alignment analysis: what is known of an integer modulo a power
// of two. `x ≡ residue (mod 2^bits)`; bits == 0 says nothing, kMaxBits is as good as exact for
// alignment questions (no access is wider than 16 bytes, no base is aligned beyond 2^30).
//
// Only powers of two matter for alignment, which keeps the arithmetic closed: sums keep the
// smaller modulus, products gain the 2-adic valuations of the factors. Plain value type, no
// clang; cheap to copy.
#include <cstdint>
#include <optional>
#include <string>

namespace kl::analyzers {

struct Congruence {
  static constexpr int kMaxBits = 30;

  int bits = 0;          // modulus is 2^bits
  int64_t residue = 0;   // in [0, 2^bits)

  static Congruence unknown() { return {}; }
  static Congruence constant(int64_t value);
  // A multiple of `alignment` (rounded down to a power of two; 0 or 1 says nothing).
  static Congruence multiple_of(uint64_t alignment);
  // x ≡ residue (mod 2^bits), normalised.
  static Congruence make(int bits, int64_t residue);

  Congruence operator+(const Congruence& other) const;
  Congruence operator-(const Congruence& other) const;
  Congruence operator*(const Congruence& other) const;
  Congruence scaled(int64_t factor) const;

  // The most that holds for both (a join at a merge of paths).
  static Congruence join(const Congruence& a, const Congruence& b);
  // Both hold (facts combined); nullopt when they contradict.
  static std::optional<Congruence> meet(const Congruence& a, const Congruence& b);

  // Is x a multiple of `alignment` (a power of two) for every value this allows?
  bool divisible_by(uint64_t alignment) const;
  // x mod alignment, when the congruence determines it.
  std::optional<int64_t> residue_mod(uint64_t alignment) const;
  // The largest power of two known to divide x (2^kMaxBits when x ≡ 0 mod 2^kMaxBits).
  uint64_t known_alignment() const;

  friend bool operator==(const Congruence&, const Congruence&) = default;
  std::string describe() const;  // "≡ 4 (mod 16)"
};

// log2 of the largest power of two dividing `value` (kMaxBits for 0).
int two_adic_valuation(int64_t value);

// Solve c·a + d ≡ r (mod 2^bits) for a: what it says of `a`, or nullopt when nothing (or no
// solution). Used to turn `if (hidden % 8) return;` into hidden ≡ 0 (mod 8).
std::optional<Congruence> solve_linear(int64_t c, int64_t d, const Congruence& rhs);

}  // namespace kl::analyzers
