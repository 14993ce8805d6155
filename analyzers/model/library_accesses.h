#pragma once
// What a call into code outside the user's files (CUTLASS, CuTe, CUDA's own headers) does to
// global memory. The access interpreter follows only the user's code; a kernel written on
// CUTLASS or CuTe reaches global memory through such calls (`cutlass::arch::cp_async_zfill`,
// `cutlass::arch::global_load`, `cute::copy` of a gmem tensor), so without them the model saw
// nothing of those kernels.
//
// A summary is read off the instantiated bodies the call reaches, transitively:
//  - inline PTX whose instruction names the global state space (`ld.global.v4.u32`,
//    `st.global`, `red.global`, `atom.global`, `cp.async ... .global`'s source); its address is
//    either one of the function's pointer parameters (possibly cast), which the caller can then
//    judge with the pointer it passes, or something else (an iterator's member), which nobody
//    can judge here;
//  - barriers (barrier_calls.h), called or in inline PTX: whether the call synchronises;
//  - a CuTe tensor parameter over `gmem_ptr` named as a copy's source (`src`) or destination
//    (`dst`): the copy reads or writes global memory (CuTe's plain copies compile to ordinary
//    loads and stores, which name no state space).
// Generic-space loads and stores in library code are not counted: whether they touch global
// memory is not written anywhere a reader can see. Not walked: the bodies of constexpr
// functions (no asm in C++17; CuTe's layout algebra is thousands of them) and of a copy whose
// own tensors already said what it does.
//
// Bounded: at most kMaxBodies bodies per parse and kMaxDepth nested calls; past either, a
// function's summary is what was found so far. Summaries are kept for the parse (one object per
// AST, used on its thread).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzers/model/barrier_calls.h"
#include "analyzers/model/ptx_text.h"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace kl::analyzers {

// A global access whose address is the function's own parameter.
struct ParameterAccess {
  unsigned parameter = 0;  // index among the function's parameters (not counting `this`)
  uint32_t width = 0;      // bytes per thread; 0 unknown
  PtxMemoryAccess::Kind kind = PtxMemoryAccess::Kind::Load;
  std::string instruction;  // "cp.async.cg.shared.global"
  std::string where;        // "cutlass/arch/memory_sm80.h:141"
};

struct LibraryAccesses {
  std::vector<ParameterAccess> through_parameters;
  // Global accesses through addresses that are not the function's parameters.
  bool loads = false;
  bool stores = false;
  std::string load_via;   // the first such load: "ld.global.v4.u32 (cutlass/arch/memory.h:130)"
  std::string store_via;
  // The widest barrier the call passes (a CUB block primitive: Block; a warp primitive: Warp).
  BarrierScope synchronizes = BarrierScope::None;

  bool empty() const { return through_parameters.empty() && !loads && !stores; }
};

class LibraryAccessSummaries {
 public:
  static constexpr size_t kMaxBodies = 50000;
  static constexpr int kMaxDepth = 40;

  explicit LibraryAccessSummaries(clang::ASTContext& context) : context_(context) {}

  // What calling `function` (through its definition) does to global memory.
  const LibraryAccesses& of(const clang::FunctionDecl& function);

 private:
  friend class LibraryBodyReader;

  clang::ASTContext& context_;
  std::unordered_map<const clang::FunctionDecl*, LibraryAccesses> summaries_;  // stable references
  std::unordered_set<const clang::FunctionDecl*> in_progress_;
  size_t bodies_ = 0;
  int depth_ = 0;
};

}  // namespace kl::analyzers
