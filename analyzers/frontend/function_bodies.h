#pragma once
// Which function bodies a parse for analysis skips (FrontendOptions::SkipFunctionBodies asks
// per definition). Skipped: the bodies of functions in system headers (CUDA's, clang's
// wrappers, the C++ library, PyTorch's), which no rule looks inside and which are most of what
// a parse of a kernel file costs. Kept: CUTLASS's and CuTe's, found as system headers too, since
// CUTLASS and CuTe kernels reach global memory only through them (`cutlass::arch::global_load`,
// `cp_async_zfill`, `cute::copy`): the access model reads their instantiated bodies
// (model/library_accesses.h). That costs about 15 % more parse time on such files (a
// flash-attention forward kernel file: 25.7 s → 29.5 s on this project's 2-core machine).
//
// A header is CUTLASS's or CuTe's when its path has a `cutlass/` or `cute/` folder whose parent
// holds `cutlass/cutlass.h` (a checkout's include/ folder, or a vendored copy's). Decided once
// per file; one object per parse, used on the parse's thread.
#include <string>
#include <unordered_map>

namespace clang {
class Decl;
class SourceManager;
}  // namespace clang

namespace kl::analyzers {

class FunctionBodySkipping {
 public:
  bool skip(const clang::SourceManager* sources, const clang::Decl* decl);

 private:
  bool is_cutlass_header(const std::string& path);

  std::unordered_map<unsigned, bool> keep_by_file_;           // FileID's hash → keep bodies
  std::unordered_map<std::string, bool> cutlass_include_dirs_;  // folder → holds cutlass/cutlass.h
};

}  // namespace kl::analyzers
