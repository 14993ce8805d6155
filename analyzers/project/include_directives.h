#pragma once
// The `#include` lines of a C/C++/CUDA source text, read without a preprocessor: enough to know
// which project files a kernel's sources pull in (kernel_includers.h), not to compile anything.
// Plain function of the text; never fails.
#include <string>
#include <string_view>
#include <vector>

namespace kl::analyzers {

struct IncludeDirective {
  std::string name;     // what is between the quotes or the angle brackets: "detail/vec.cuh"
  bool angled = false;  // `#include <...>`
};

// Every `#include "..."` and `#include <...>` line of `text`, in order. Lines inside /* */
// comments are skipped; `#if` is not evaluated, so an include in a branch that is never taken
// still counts (one file too many is cheaper than a header without its kernel). Macro includes
// (`#include HEADER`) and `#include_next` are not followed.
std::vector<IncludeDirective> include_directives(std::string_view text);

}  // namespace kl::analyzers
