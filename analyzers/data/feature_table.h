#pragma once
// Which features need which architecture: builtins and intrinsics, inline-PTX mnemonics, types,
// attributes and cooperative-groups APIs, loaded from data/features.toml (embedded at build
// time; $KERNEL_LSP_FEATURES_TOML replaces it). Immutable after loading; lookups are by exact
// name (functions, macros) or by regex (PTX instructions, types).
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzers/project/capability.h"
#include "support/result.h"

namespace kl::analyzers {

enum class FeatureKind { Function, Ptx, Macro, Type };

struct Feature {
  std::string id;
  FeatureKind kind = FeatureKind::Function;
  std::vector<std::string> names;            // Function / Macro: exact (qualified) names
  std::vector<std::string> pattern_texts;    // Ptx / Type: regexes as written
  std::vector<std::regex> patterns;
  std::optional<std::regex> argument_type;   // Function: first argument's type must match
  std::string argument_type_text;
  Capability min;                            // forward compatible from here
  std::vector<Capability> only;              // when set: these arch-specific targets only
  std::string summary;                       // one line, for hovers and messages
  std::string guard;                         // preprocessor condition that makes code safe

  bool available_on(const Capability& capability) const;
  std::string requirement() const;           // "compute capability 8.0+" or "9.0a only"
};

class FeatureTable {
 public:
  static Result<FeatureTable> parse(std::string_view toml_text, const std::string& source_name);
  static const FeatureTable& builtin();

  // The function features that `qualified_name` (inline namespaces removed) with first
  // argument type `first_argument_type` (may be empty) uses.
  std::vector<const Feature*> match_function(const std::string& qualified_name,
                                             const std::string& first_argument_type) const;
  std::vector<const Feature*> match_macro(const std::string& name) const;
  // One PTX instruction, e.g. "cp.async.ca.shared.global"; predicates already stripped.
  std::vector<const Feature*> match_ptx(const std::string& instruction) const;
  std::vector<const Feature*> match_type(const std::string& type_name) const;
  const Feature* find(const std::string& id) const;
  const std::vector<Feature>& all() const { return features_; }

 private:
  std::vector<Feature> features_;
  std::unordered_map<std::string, std::vector<size_t>> by_name_;  // functions and macros
};

}  // namespace kl::analyzers
