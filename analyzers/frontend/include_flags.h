#pragma once
// The include folders a compiler command line names (-I, -isystem, -idirafter, -iquote,
// --include-directory=; joined or as the next argument): what the lookups of PyTorch's and
// CUTLASS's headers ask before adding their own, so that a project's own copy wins.
#include <string>
#include <vector>

namespace kl::analyzers {

std::vector<std::string> include_dirs_in(const std::vector<std::string>& flags);

}  // namespace kl::analyzers
