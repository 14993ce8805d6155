#pragma once
// Where an offset of a C++/CUDA text stands, from a lexical scan: inside a comment, a string or
// a preprocessor line, inside parentheses, at file (or namespace, or extern "C") scope, in a
// class body, or in a function body, and then whether that function is device code
// (__global__ / __device__) and whether a new statement may start there. No parse: it must work
// on text that does not compile yet, which is most text being typed. It knows comments (also
// inside directives), string, character and raw string literals, digit separators, directives
// with continuation lines, #if/#elif/#else branches that open a function body twice (the first
// branch wins after #endif), templates, attributes (alignas, __align__, __launch_bounds__),
// namespaces, classes, lambdas, brace initialisers, and macro invocations without a semicolon
// (REGISTER_EXTENSION(...)). Pure; O(offset).
#include <cstddef>
#include <string_view>

namespace kl::lsp {

enum class CxxScope {
  Comment,     // inside // or /* */
  Literal,     // inside a string or character literal
  Directive,   // on a preprocessor line
  Expression,  // inside ( ) or [ ], or a brace initialiser, or an enum's braces
  FileScope,   // file, namespace or linkage-specification scope
  ClassBody,   // between the braces of a struct, class or union
  DeviceBody,  // in the body of a __global__ or __device__ function (or a lambda in one)
  HostBody,    // in the body of any other function
};

struct CxxPosition {
  CxxScope scope = CxxScope::FileScope;
  // Nothing of a declaration or statement stands before the offset at its level: a new one may
  // start here (after `;`, `{`, `}`, a directive, or a macro invocation line at file scope).
  bool statement_start = false;
};

CxxPosition cxx_position_at(std::string_view text, size_t offset);

}  // namespace kl::lsp
