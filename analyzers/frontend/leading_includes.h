#pragma once
// The angle-bracket includes a source file opens with: the `#include <...>` lines before its
// first other directive or declaration (comments, blank lines and `#pragma once` between them
// are allowed). Nothing of the file comes before them, so compiling them ahead of the file, into
// a precompiled header, gives the parse the same state at the same point: the toolkit PCH
// (toolkit_pch.h) holds them when they resolve to system headers.
#include <string>
#include <string_view>
#include <vector>

namespace kl::analyzers {

// The header names, in order, as written between the brackets (`cooperative_groups/reduce.h`).
// Stops at the first line that is anything else, including a quoted include, a macro
// definition, a conditional, a continued line or code.
std::vector<std::string> leading_angle_includes(std::string_view text);

}  // namespace kl::analyzers
