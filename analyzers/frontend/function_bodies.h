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
//
// Also skipped, when the parse asks: the main file's definitions whose bodies another parse of the
// file has analysed already (pipeline/shared_bodies.h), named by the byte offset of the
// function's name.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace clang {
class Decl;
class SourceManager;
}  // namespace clang

namespace kl::analyzers {

class FunctionBodySkipping {
 public:
  bool skip(const clang::SourceManager* sources, const clang::Decl* decl);
  // `offsets` sorted; it must outlive this object.
  void skip_main_file_bodies(const std::vector<uint32_t>* offsets) { main_file_offsets_ = offsets; }

 private:
  bool is_cutlass_header(const std::string& path);

  std::unordered_map<unsigned, bool> keep_by_file_;           // FileID's hash → keep bodies
  std::unordered_map<std::string, bool> cutlass_include_dirs_;  // folder → holds cutlass/cutlass.h
  const std::vector<uint32_t>* main_file_offsets_ = nullptr;
};

}  // namespace kl::analyzers
