#pragma once
// The main file's declarations outside function bodies (functions, classes, variables, types,
// directly at namespace scope or in namespaces and `extern "C"` blocks), each with the names
// other code uses for it and the identifiers its own text mentions: a graph of which definitions
// may use which, read from one parse. A parse of another configuration of the file uses it to
// tell which bodies it can skip (pipeline/shared_bodies.h).
//
// Names and mentions are identifiers, compared as text, so the graph over-approximates: two
// functions called `load` in two namespaces are one name, and a parameter called like a function
// mentions it. A method is named by its own name and its class's (constructing, destroying or
// converting a `Vec` mentions `Vec`); an operator that is not a member is named by the
// identifiers of its declarator (`operator+(float2, float2)` by `float2`). A definition's mentions
// include, for each macro of the main file it uses, the identifiers of the macro's definitions.
//
// Build it on the parse's thread while the AST lives; the index itself is plain data.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/frontend/raw_identifiers.h"

namespace clang {
class ASTContext;
}

namespace kl::analyzers {

class SourceView;

struct Definition {
  uint32_t begin = 0;  // byte offsets in the main file; a macro's expansion is where it is written
  uint32_t end = 0;
  Range range;  // the same, as lines and columns
  IdentifierSet names;
  IdentifierSet mentions;
  std::vector<uint32_t> bodies;  // byte offsets of the names of the function definitions in it
  bool kernel = false;           // one of them is a __global__ function
  bool device = false;  // one of them device code can call (__device__, __host__ __device__, constexpr)
  bool host = false;    // one of them host code can call (no attribute, __host__, __host__ __device__)
  // For a lone function whose body only its callers' code depends on (not constexpr, its return
  // type written out): where its body starts. A difference past it leaves the function's
  // declaration, and so its callers' code, as they were.
  std::optional<uint32_t> body_begin;
};

struct DefinitionIndex {
  std::vector<Definition> definitions;                    // in the order of the AST
  std::unordered_map<std::string, IdentifierSet> macros;  // the main file's, as macro_identifiers_in
};

DefinitionIndex index_definitions(clang::ASTContext& context, const SourceView& view);

}  // namespace kl::analyzers
