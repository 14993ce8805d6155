#pragma once
// The identifiers a piece of C++ text names, read by clang's raw lexer (no preprocessor, no
// parse): what code mentions, including in branches the preprocessor would drop, for telling
// which definitions can see one another (definition_index.h). Keywords, comments, literals and
// the lines of preprocessor directives (but those of #define, see macro_identifiers_in) are not
// identifiers here.
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace kl::analyzers {

using IdentifierSet = std::unordered_set<std::string>;

// Every identifier in `text`.
IdentifierSet identifiers_in(std::string_view text);

// The identifiers `text` names outside braces, parentheses and template parameter lists: at
// namespace scope, what its declarations declare (`helper` of `__device__ float helper(float x) {
// ... }`, `vec_t` of `using vec_t = float4;`), with the types they are written with. Names that
// start with `__` (`__device__`, `__launch_bounds__`) are the implementation's and left out.
IdentifierSet top_level_identifiers_in(std::string_view text);

// Whether every `{` of `text` (directives aside) has its `}`, in order.
bool braces_balance(std::string_view text);

// Whether `text` holds the directive `#name` (`include`).
bool has_directive(std::string_view text, std::string_view name);

// For each macro `text` defines (#define, in every branch), the identifiers of its parameters'
// replacement lists, all definitions of one name together.
std::unordered_map<std::string, IdentifierSet> macro_identifiers_in(std::string_view text);

// `names` with, for each that is one of `macros`, the identifiers its definitions use, and so on
// for the macros those name.
void add_macro_identifiers(IdentifierSet& names,
                           const std::unordered_map<std::string, IdentifierSet>& macros);

}  // namespace kl::analyzers
