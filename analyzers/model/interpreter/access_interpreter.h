#pragma once
// The abstract interpreter behind the access model (internal to model/access_*.cpp).
//
// It walks a function body's statements in order, with an environment that maps each local
// variable to a symbolic value (an integer form over atoms, a pointer = base + byte offset, a
// dim3), joins environments where paths merge, gives loops an induction atom per variable
// stepped by a loop-invariant amount, inlines calls to the user's __device__ functions with the
// caller's argument values (depth 4), and keeps per-path facts from conditions (`if (n % 8)
// return;`, `if (threadIdx.x == 0)`, `__builtin_assume`, `static_assert`). At each load or
// store through a pointer it asks the warp estimator and the congruence domain for a verdict
// and appends a MemoryAccess.
//
// Host functions that launch kernels are walked by the same interpreter (no thread atoms):
// each launch reports its block shape and what it passes to each parameter.
//
// Cost: linear in the size of the user's device code times the inlining fan-out; nothing of
// CUDA's headers is walked. Not thread-safe; one instance per parse.
//
// The implementation is in parts with one job each; access_interpreter_impl.h lists them and
// states the contracts they keep.
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/model/alignment_congruence.h"
#include "analyzers/model/unit_facts.h"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace kl::analyzers {

class SourceView;

// A grid dimension launched as `(X + B - 1) / B` blocks of B threads: the threads cover X rounded
// up to a multiple of B, so when B does not divide X the last block's threads run past X.
struct RoundedGrid {
  int64_t block = 0;    // B; 0 when the dimension is not launched so (or B divides X on the path)
  int parameter = -1;   // the kernel parameter the launch passes X as, if it does
  std::string count;    // X as the launch writes it ("n")
  std::optional<int64_t> count_value;  // X's value there, when the host path fixes it
  Location launch;
};

// What the launches in the file say about one kernel: the block shape when every launch agrees,
// and per parameter what every launch's argument is known to be (for pointers, its address).
struct KernelLaunchFacts {
  int launches = 0;
  std::optional<uint32_t> block[3];
  std::vector<std::optional<Congruence>> parameters;
  std::vector<std::string> parameter_notes;  // "`in + 1` at line 42"
  RoundedGrid rounded[3];  // the first launch whose grid rounds a count up, per dimension
  // Per pointer parameter: the integer parameters that every launch passes as the number of
  // elements its buffer holds (from the host's allocation), and where the first launch's buffer
  // was allocated ("`a` holds n elements: cudaMalloc at line 95").
  std::vector<std::vector<int>> extent_counts;
  std::vector<std::string> extent_notes;
};

struct LaunchObservation {
  const clang::FunctionDecl* kernel = nullptr;  // canonical declaration of the callee
  std::optional<uint32_t> block[3];
  std::vector<std::optional<Congruence>> arguments;
  std::vector<std::string> argument_texts;
  Location location;
  RoundedGrid rounded[3];
  std::vector<std::vector<int>> extent_counts;  // per argument, as KernelLaunchFacts::extent_counts
  std::vector<std::string> extent_notes;
};

// The CUDA runtime calls whose first argument receives a device allocation whose size in bytes is
// their second (`cudaMalloc(&p, bytes)`): the host code's buffer lengths start there.
bool is_device_allocation(std::string_view name);

class AccessInterpreter {
 public:
  AccessInterpreter(clang::ASTContext& context, const SourceView& view, const ModelOptions& options);
  ~AccessInterpreter();
  AccessInterpreter(const AccessInterpreter&) = delete;
  AccessInterpreter& operator=(const AccessInterpreter&) = delete;

  // Analyse a kernel (a plain kernel, an instantiation, or an uninstantiated pattern).
  // Barriers and shared-memory races go to `barriers` and `hazards` when given.
  void analyse_kernel(const clang::FunctionDecl& kernel, const KernelLaunchFacts& launches,
                      std::vector<MemoryAccess>& out, std::vector<BarrierRecord>* barriers = nullptr,
                      std::vector<SharedHazard>* hazards = nullptr);
  // Walk a host function and report each kernel launch it makes, following calls into the
  // host functions of `inlinable` (those that lead to launches) with the caller's arguments.
  void observe_launches(const clang::FunctionDecl& host, const std::set<const clang::FunctionDecl*>& inlinable,
                        std::vector<LaunchObservation>& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kl::analyzers
