#pragma once
// Symbolic integer values of the access model: polynomials with integer coefficients over
// *atoms* (threadIdx.x, blockDim.y, a kernel parameter, a loop's iteration count, an opaque
// load, the quotient `tid / 32`, the address of a memory base). The model keeps them affine in
// the thread atoms in practice, but coefficients may be products of other atoms, so that
// `row * n` keeps `n` as the stride of `row`.
//
// `x % k` is represented as `x - k * Q` with the quotient atom Q = floor(x / k): then
// `(i / n) * n + i % n` simplifies back to `i`, and `tid % 32` keeps coefficient 1 on tid.
//
// Plain value types, no clang. A Poly is a sorted list of terms; every operation that would
// overflow 64 bits, or grow past kMaxTerms / kMaxDegree, fails (nullopt) and the caller replaces
// the value with a fresh opaque atom.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/model/alignment_congruence.h"

namespace kl::analyzers {

using AtomId = uint32_t;

enum class AtomKind : uint8_t {
  ThreadIdx,      // dim: 0 x, 1 y, 2 z
  BlockIdx,
  BlockDim,
  GridDim,
  Parameter,      // a kernel's scalar parameter (or a field of a by-value struct parameter)
  TemplateParam,  // a non-type template parameter of a template analysed uninstantiated
  SizeOf,         // sizeof(T) of a dependent type
  Induction,      // how many iterations a loop has run
  Quotient,       // floor(inner / divisor)
  Opaque,         // a load, a call, a non-affine result, a join of different values
  Address,        // the address of a memory base (a pointer parameter, a __shared__ array)
};

// How an atom's value changes across the 32 lanes of a warp.
enum class Variation : uint8_t {
  Uniform,    // the same in every lane
  Piecewise,  // a function of the thread index that changes rarely within a warp (tid / n)
  Lane,       // a known function of the thread index (threadIdx.x, tid / 4)
  Varying,    // unknown per lane (data-dependent)
};

Variation max_variation(Variation a, Variation b);

struct Term {
  std::vector<AtomId> atoms;  // sorted, repeated for powers; empty for the constant term
  int64_t coefficient = 0;
  friend bool operator==(const Term&, const Term&) = default;
};

class Poly {
 public:
  static constexpr size_t kMaxTerms = 48;
  static constexpr size_t kMaxDegree = 4;

  Poly() = default;
  static Poly constant(int64_t value);
  static Poly atom(AtomId id, int64_t coefficient = 1);

  const std::vector<Term>& terms() const { return terms_; }
  bool is_zero() const { return terms_.empty(); }
  bool is_constant() const;
  std::optional<int64_t> constant_value() const;  // when is_constant()
  int64_t constant_term() const;
  size_t degree() const;
  bool mentions(AtomId id) const;
  std::vector<AtomId> atoms() const;  // distinct, sorted

  std::optional<Poly> plus(const Poly& other) const;
  std::optional<Poly> minus(const Poly& other) const;
  std::optional<Poly> times(const Poly& other) const;
  std::optional<Poly> scaled(int64_t factor) const;
  // Exact division of every coefficient by `divisor`; nullopt when one does not divide.
  std::optional<Poly> divided_exactly(int64_t divisor) const;
  // Exact division by an atom that every term contains (sizeof(T) in a dependent index).
  std::optional<Poly> divided_by_atom(AtomId id) const;
  // ∂/∂atom for terms linear in it: the coefficient of `id`.
  Poly derivative(AtomId id) const;
  // Replace an atom by a polynomial.
  std::optional<Poly> substituted(AtomId id, const Poly& value) const;
  // The terms that mention any atom for which `pick` is true, and the rest.
  template <typename Pred>
  std::pair<Poly, Poly> split(Pred pick) const {
    Poly yes, no;
    for (const auto& t : terms_) {
      bool any = false;
      for (AtomId a : t.atoms) any = any || pick(a);
      (any ? yes : no).terms_.push_back(t);
    }
    return {yes, no};
  }

  std::string key() const;  // stable text for interning ("3*a1*a4+-2")
  friend bool operator==(const Poly&, const Poly&) = default;

 private:
  static std::optional<Poly> from_terms(std::vector<Term> terms);
  std::vector<Term> terms_;
};

struct Atom {
  AtomKind kind = AtomKind::Opaque;
  uint8_t dim = 0;                 // ThreadIdx/BlockIdx/BlockDim/GridDim
  Variation variation = Variation::Uniform;
  Congruence congruence;           // what is known of its value modulo powers of two
  std::string name;                // as printed in messages ("ld", "blockDim.x", "args.n")
  bool parameter_like = false;     // a value the caller chooses (condition texts name these)
  bool loaded = false;             // Opaque: read from memory at a per-lane address (`ids[i]`)
  bool thread_private = false;     // Opaque: read from a thread's own (local) array: may differ per thread
  bool from_shared = false;        // Opaque, loaded: read from shared memory (a value the block computed)
  Poly inner;                      // Quotient: the dividend
  Poly divisor;                    // Quotient: the divisor (a constant or a uniform form)
};

class AtomTable;

// A kernel parameter that every launch in the file passes as the same constant (its congruence
// is exact): that constant.
std::optional<int64_t> launch_constant(const Atom& atom);

// `p` with every launch constant written in: a product too large to keep with the names
// (degree over kMaxDegree) often fits with the numbers.
std::optional<Poly> with_launch_constants(const AtomTable& atoms, const Poly& p);

// Owns the atoms of one analysis (one kernel, or one host function). Interning gives the same
// atom to the same thread index, parameter, or quotient of equal forms.
class AtomTable {
 public:
  AtomId add(Atom atom);
  // The atom registered under `key`, adding `make` the first time.
  AtomId intern(const std::string& key, const Atom& make);
  std::optional<AtomId> find(const std::string& key) const;
  const Atom& operator[](AtomId id) const { return atoms_[id]; }
  Atom& at(AtomId id) { return atoms_[id]; }
  size_t size() const { return atoms_.size(); }

  // floor(inner / divisor) as an atom, interned by the two forms.
  AtomId quotient(const Poly& inner, const Poly& divisor);

  Variation variation(const Poly& p) const;
  bool is_thread_dependent(const Poly& p) const { return variation(p) != Variation::Uniform; }

  // "ld", "2 * ld + 1", "n * m", "(tid / 32)".
  std::string print(const Poly& p) const;

 private:
  std::vector<Atom> atoms_;
  std::map<std::string, AtomId> interned_;
};

// Per-path knowledge that refines atoms: `if (hidden % 8) return;` makes hidden ≡ 0 (mod 8);
// `if (blockDim.x != 32) return;` makes blockDim.x == 32; `(uintptr_t)p % 16 == 0` is kept as a
// fact on the whole form.
struct PathFacts {
  std::map<AtomId, Congruence> congruences;
  std::map<AtomId, int64_t> values;
  std::vector<std::pair<Poly, Congruence>> forms;

  // Facts that hold on both paths.
  static PathFacts join(const PathFacts& a, const PathFacts& b);
  // Add `form ≡ c`: on one atom when the form is c·atom + d, else as a form fact.
  void add_congruence(const AtomTable& atoms, const Poly& form, const Congruence& c);
  void add_value(AtomId atom, int64_t value) { values[atom] = value; }
};

// What is known of a form modulo powers of two, from its atoms (and the path's facts).
Congruence congruence_of(const AtomTable& atoms, const Poly& p, const PathFacts* facts = nullptr);

// The form with every atom that has a known value (PathFacts::values) replaced.
Poly with_known_values(const Poly& p, const PathFacts& facts);

// Wide enough that products of two 64-bit values do not overflow while forms are evaluated.
using WideInt = __int128;

// The form's value with each atom valued by `value_of` (AtomId -> optional<WideInt>); nothing
// when some atom has no value.
template <class ValueOf>
std::optional<WideInt> evaluate(const Poly& p, const ValueOf& value_of) {
  WideInt sum = 0;
  for (const auto& t : p.terms()) {
    WideInt term = t.coefficient;
    for (AtomId a : t.atoms) {
      std::optional<WideInt> v = value_of(a);
      if (!v) return std::nullopt;
      term *= *v;
    }
    sum += term;
  }
  return sum;
}

// Division rounded towards minus infinity, as a quotient atom means it (b != 0).
inline WideInt floor_div(WideInt a, WideInt b) {
  WideInt q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace kl::analyzers
