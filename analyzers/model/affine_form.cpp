#include "analyzers/model/affine_form.h"

#include <algorithm>

namespace kl::analyzers {
namespace {

bool checked_mul(int64_t a, int64_t b, int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }
bool checked_add(int64_t a, int64_t b, int64_t& out) { return !__builtin_add_overflow(a, b, &out); }

bool atoms_less(const std::vector<AtomId>& a, const std::vector<AtomId>& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

}  // namespace

Variation max_variation(Variation a, Variation b) {
  return static_cast<uint8_t>(a) >= static_cast<uint8_t>(b) ? a : b;
}

// ---------------------------------------------------------------------------------- Poly

std::optional<Poly> Poly::from_terms(std::vector<Term> terms) {
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return atoms_less(a.atoms, b.atoms); });
  Poly out;
  for (auto& t : terms) {
    if (!out.terms_.empty() && out.terms_.back().atoms == t.atoms) {
      int64_t sum;
      if (!checked_add(out.terms_.back().coefficient, t.coefficient, sum)) return std::nullopt;
      out.terms_.back().coefficient = sum;
    } else {
      out.terms_.push_back(std::move(t));
    }
  }
  out.terms_.erase(std::remove_if(out.terms_.begin(), out.terms_.end(), [](const Term& t) { return t.coefficient == 0; }),
                   out.terms_.end());
  if (out.terms_.size() > kMaxTerms) return std::nullopt;
  return out;
}

Poly Poly::constant(int64_t value) {
  Poly p;
  if (value != 0) p.terms_.push_back({{}, value});
  return p;
}

Poly Poly::atom(AtomId id, int64_t coefficient) {
  Poly p;
  if (coefficient != 0) p.terms_.push_back({{id}, coefficient});
  return p;
}

bool Poly::is_constant() const { return terms_.empty() || (terms_.size() == 1 && terms_[0].atoms.empty()); }

std::optional<int64_t> Poly::constant_value() const {
  if (!is_constant()) return std::nullopt;
  return constant_term();
}

int64_t Poly::constant_term() const {
  return !terms_.empty() && terms_[0].atoms.empty() ? terms_[0].coefficient : 0;
}

size_t Poly::degree() const {
  size_t d = 0;
  for (const auto& t : terms_) d = std::max(d, t.atoms.size());
  return d;
}

bool Poly::mentions(AtomId id) const {
  for (const auto& t : terms_)
    if (std::find(t.atoms.begin(), t.atoms.end(), id) != t.atoms.end()) return true;
  return false;
}

std::vector<AtomId> Poly::atoms() const {
  std::vector<AtomId> out;
  for (const auto& t : terms_) out.insert(out.end(), t.atoms.begin(), t.atoms.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<Poly> Poly::plus(const Poly& other) const {
  std::vector<Term> terms = terms_;
  terms.insert(terms.end(), other.terms_.begin(), other.terms_.end());
  return from_terms(std::move(terms));
}

std::optional<Poly> Poly::minus(const Poly& other) const {
  auto negated = other.scaled(-1);
  if (!negated) return std::nullopt;
  return plus(*negated);
}

std::optional<Poly> Poly::times(const Poly& other) const {
  std::vector<Term> terms;
  terms.reserve(terms_.size() * other.terms_.size());
  for (const auto& a : terms_) {
    for (const auto& b : other.terms_) {
      Term t;
      if (!checked_mul(a.coefficient, b.coefficient, t.coefficient)) return std::nullopt;
      t.atoms = a.atoms;
      t.atoms.insert(t.atoms.end(), b.atoms.begin(), b.atoms.end());
      if (t.atoms.size() > kMaxDegree) return std::nullopt;
      std::sort(t.atoms.begin(), t.atoms.end());
      terms.push_back(std::move(t));
    }
  }
  if (terms.size() > kMaxTerms * 4) return std::nullopt;
  return from_terms(std::move(terms));
}

std::optional<Poly> Poly::scaled(int64_t factor) const {
  if (factor == 0) return Poly();
  Poly out = *this;
  for (auto& t : out.terms_)
    if (!checked_mul(t.coefficient, factor, t.coefficient)) return std::nullopt;
  return out;
}

std::optional<Poly> Poly::divided_exactly(int64_t divisor) const {
  if (divisor == 0) return std::nullopt;
  Poly out = *this;
  for (auto& t : out.terms_) {
    if (t.coefficient % divisor != 0) return std::nullopt;
    t.coefficient /= divisor;
  }
  return out;
}

std::optional<Poly> Poly::divided_by_atom(AtomId id) const {
  Poly out = *this;
  for (auto& t : out.terms_) {
    auto it = std::find(t.atoms.begin(), t.atoms.end(), id);
    if (it == t.atoms.end()) return std::nullopt;
    t.atoms.erase(it);
  }
  return from_terms(out.terms_);
}

Poly Poly::derivative(AtomId id) const {
  std::vector<Term> terms;
  for (const auto& t : terms_) {
    long count = std::count(t.atoms.begin(), t.atoms.end(), id);
    if (count != 1) continue;  // higher powers are not affine in the atom: see the caller
    Term d = t;
    d.atoms.erase(std::find(d.atoms.begin(), d.atoms.end(), id));
    terms.push_back(std::move(d));
  }
  auto out = from_terms(std::move(terms));
  return out ? *out : Poly();
}

std::optional<Poly> Poly::substituted(AtomId id, const Poly& value) const {
  Poly out;
  for (const auto& t : terms_) {
    Poly term = Poly::constant(t.coefficient);
    for (AtomId a : t.atoms) {
      auto next = term.times(a == id ? value : Poly::atom(a));
      if (!next) return std::nullopt;
      term = std::move(*next);
    }
    auto sum = out.plus(term);
    if (!sum) return std::nullopt;
    out = std::move(*sum);
  }
  return out;
}

std::string Poly::key() const {
  std::string out;
  for (const auto& t : terms_) {
    if (!out.empty()) out += "+";
    out += std::to_string(t.coefficient);
    for (AtomId a : t.atoms) out += "*a" + std::to_string(a);
  }
  return out.empty() ? "0" : out;
}

// ---------------------------------------------------------------------------------- AtomTable

AtomId AtomTable::add(Atom atom) {
  atoms_.push_back(std::move(atom));
  return static_cast<AtomId>(atoms_.size() - 1);
}

AtomId AtomTable::intern(const std::string& key, const Atom& make) {
  auto it = interned_.find(key);
  if (it != interned_.end()) return it->second;
  AtomId id = add(make);
  interned_.emplace(key, id);
  return id;
}

std::optional<AtomId> AtomTable::find(const std::string& key) const {
  auto it = interned_.find(key);
  if (it == interned_.end()) return std::nullopt;
  return it->second;
}

std::optional<int64_t> launch_constant(const Atom& atom) {
  if (atom.kind != AtomKind::Parameter || atom.congruence.bits < Congruence::kMaxBits) return std::nullopt;
  int64_t r = atom.congruence.residue;
  if (r >= (int64_t{1} << (Congruence::kMaxBits - 1))) r -= int64_t{1} << Congruence::kMaxBits;
  return r;
}

std::optional<Poly> with_launch_constants(const AtomTable& atoms, const Poly& p) {
  Poly out = p;
  for (AtomId a : p.atoms()) {
    auto value = launch_constant(atoms[a]);
    if (!value) continue;
    auto next = out.substituted(a, Poly::constant(*value));
    if (!next) return std::nullopt;
    out = std::move(*next);
  }
  return out;
}

AtomId AtomTable::quotient(const Poly& inner, const Poly& divisor) {
  std::string key = "Q(" + inner.key() + "/" + divisor.key() + ")";
  if (auto found = find(key)) return *found;
  Atom q;
  q.kind = AtomKind::Quotient;
  q.inner = inner;
  q.divisor = divisor;
  Variation v = variation(inner);
  bool constant_divisor = divisor.is_constant();
  if (v == Variation::Lane && !constant_divisor) v = Variation::Piecewise;
  q.variation = max_variation(v, variation(divisor));
  q.name = "(" + print(inner) + " / " + print(divisor) + ")";
  return intern(key, q);
}

Variation AtomTable::variation(const Poly& p) const {
  Variation v = Variation::Uniform;
  for (AtomId a : p.atoms()) v = max_variation(v, atoms_[a].variation);
  return v;
}

std::string AtomTable::print(const Poly& p) const {
  if (p.is_zero()) return "0";
  std::string out;
  bool first = true;
  // Highest-degree terms first reads better ("2 * ld + 1").
  std::vector<Term> terms = p.terms();
  std::stable_sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.atoms.size() > b.atoms.size(); });
  for (const auto& t : terms) {
    int64_t c = t.coefficient;
    if (!first) out += c < 0 ? " - " : " + ";
    else if (c < 0) out += "-";
    uint64_t magnitude = c < 0 ? static_cast<uint64_t>(-(c + 1)) + 1 : static_cast<uint64_t>(c);
    std::string factors;
    for (AtomId a : t.atoms) {
      if (!factors.empty()) factors += " * ";
      factors += atoms_[a].name;
    }
    if (factors.empty()) out += std::to_string(magnitude);
    else if (magnitude == 1) out += factors;
    else out += std::to_string(magnitude) + " * " + factors;
    first = false;
  }
  return out;
}

// ---------------------------------------------------------------------------------- facts

PathFacts PathFacts::join(const PathFacts& a, const PathFacts& b) {
  PathFacts out;
  for (const auto& [atom, c] : a.congruences) {
    auto it = b.congruences.find(atom);
    if (it == b.congruences.end()) continue;
    Congruence j = Congruence::join(c, it->second);
    if (j.bits > 0) out.congruences[atom] = j;
  }
  for (const auto& [atom, v] : a.values) {
    auto it = b.values.find(atom);
    if (it != b.values.end() && it->second == v) out.values[atom] = v;
  }
  for (const auto& f : a.forms)
    if (std::find(b.forms.begin(), b.forms.end(), f) != b.forms.end()) out.forms.push_back(f);
  return out;
}

void PathFacts::add_congruence(const AtomTable& atoms, const Poly& form, const Congruence& c) {
  (void)atoms;
  if (c.bits == 0) return;
  // c·atom + d ≡ r: a fact about the atom alone.
  const auto& terms = form.terms();
  const Term* linear = nullptr;
  int64_t d = 0;
  bool single = true;
  for (const auto& t : terms) {
    if (t.atoms.empty()) d = t.coefficient;
    else if (t.atoms.size() == 1 && !linear) linear = &t;
    else single = false;
  }
  if (single && linear) {
    if (auto solved = solve_linear(linear->coefficient, d, c)) {
      AtomId atom = linear->atoms[0];
      auto it = congruences.find(atom);
      if (it == congruences.end()) congruences[atom] = *solved;
      else if (auto met = Congruence::meet(it->second, *solved)) it->second = *met;
    }
    return;
  }
  forms.emplace_back(form, c);
}

Poly with_known_values(const Poly& p, const PathFacts& facts) {
  if (facts.values.empty()) return p;
  Poly out = p;
  for (const auto& [atom, value] : facts.values) {
    if (!out.mentions(atom)) continue;
    if (auto next = out.substituted(atom, Poly::constant(value))) out = std::move(*next);
  }
  return out;
}

namespace {

Congruence atom_congruence(const AtomTable& atoms, AtomId id, const PathFacts* facts) {
  if (facts) {
    if (auto it = facts->values.find(id); it != facts->values.end()) return Congruence::constant(it->second);
    if (auto it = facts->congruences.find(id); it != facts->congruences.end()) {
      if (auto met = Congruence::meet(atoms[id].congruence, it->second)) return *met;
      return it->second;
    }
  }
  return atoms[id].congruence;
}

Congruence direct_congruence(const AtomTable& atoms, const Poly& p, const PathFacts* facts) {
  Congruence sum = Congruence::constant(0);
  for (const auto& t : p.terms()) {
    Congruence term = Congruence::constant(t.coefficient);
    for (AtomId a : t.atoms) term = term * atom_congruence(atoms, a, facts);
    sum = sum + term;
  }
  return sum;
}

}  // namespace

Congruence congruence_of(const AtomTable& atoms, const Poly& p, const PathFacts* facts) {
  Congruence best = direct_congruence(atoms, p, facts);
  if (!facts || facts->forms.empty()) return best;
  // p = s·F + rest with a known F ≡ c: p ≡ s·c + congruence(rest).
  for (const auto& [form, c] : facts->forms) {
    for (const auto& ft : form.terms()) {
      if (ft.atoms.empty()) continue;
      for (const auto& pt : p.terms()) {
        if (pt.atoms != ft.atoms || pt.coefficient % ft.coefficient != 0) continue;
        int64_t s = pt.coefficient / ft.coefficient;
        auto scaled = form.scaled(s);
        if (!scaled) continue;
        auto rest = p.minus(*scaled);
        if (!rest) continue;
        Congruence candidate = direct_congruence(atoms, *rest, facts) + c.scaled(s);
        if (candidate.known_alignment() > best.known_alignment() ||
            (candidate.bits > best.bits && candidate.known_alignment() >= best.known_alignment()))
          best = candidate;
      }
      break;  // one anchor term per fact is enough
    }
  }
  return best;
}

}  // namespace kl::analyzers
