#pragma once
// What the model layer extracts from one parse of a translation unit for one target arch:
// plain data that rules read. Everything here is in the user's files (never CUDA's or clang's
// headers); locations are 0-based lines and UTF-8 columns.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/model/access_record.h"
#include "analyzers/model/sync_record.h"

namespace kl::analyzers {

// A use of something that needs a minimum architecture (see data/features.toml).
struct FeatureUse {
  std::string feature_id;  // key into the FeatureTable
  std::string spelling;    // what the source says: "__reduce_add_sync", "cp.async.ca.shared.global"
  Location location;       // the exact range of the use
  std::string function;    // enclosing device function, for messages
  // When the enclosing function is not a kernel but nvcc emits it: the first kernel that reaches
  // it ("" otherwise), and where that kernel is named.
  std::string reaching_kernel;
  Location reaching_kernel_location;
};

struct SharedVariable {
  std::string name;
  Location location;
  uint64_t bytes = 0;           // 0 for extern (dynamic) arrays
  bool is_dynamic = false;      // extern __shared__ T x[];
  uint64_t declared_alignment = 0;  // __align__(N) / alignas; 0 when not written
};

struct KernelInfo {
  std::string name;           // as written; templates by their pattern name
  std::string qualified_name;
  Location location;          // the kernel's name in its declaration
  Range body_range;           // whole definition, for hovers and symbols
  std::optional<uint32_t> max_threads_per_block;  // __launch_bounds__(N, ...)
  std::optional<uint32_t> min_blocks_per_sm;
  std::vector<SharedVariable> shared_variables;   // __shared__ declared in the body
  uint64_t static_shared_bytes = 0;                // sum of the non-extern ones
  // Whether this configuration compiles code for it that does something: false for a kernel
  // template no one instantiates (nvcc emits nothing) and for a body that, as preprocessed for
  // this architecture, only prints or traps (`#if __CUDA_ARCH__ < 800 ... #else printf("built
  // for SM80") #endif` in a file built for 9.0). Such a kernel touches no memory here.
  bool has_code = true;
};

// kernel<<<grid, block, dynamic_smem, stream>>>(...) or cudaLaunchKernel*/cudaLaunchKernelEx.
struct LaunchSite {
  std::string kernel_name;
  Location location;
  std::optional<uint64_t> dynamic_shared_bytes;  // when a constant
  Range dynamic_shared_range;                    // the expression, when present
  std::optional<uint32_t> block_x, block_y, block_z;  // when constants
};

// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)
struct SharedMemoryOptIn {
  std::string kernel_name;
  Location location;
  std::optional<uint64_t> bytes;
};

// Assumptions the model makes where the code says nothing.
struct ModelOptions {
  uint32_t assumed_pointer_alignment = 256;  // bytes, for kernel pointer parameters
  bool access_model = true;                  // build `accesses` (off: KERNEL_LSP_DISABLE_ACCESS_MODEL=1)
};

// One parse = one set of facts. `arch_dependent` says whether the user's own code tests
// __CUDA_ARCH__ (or another arch macro); if not, one parse serves every target arch.
struct UnitFacts {
  std::vector<FeatureUse> feature_uses;
  std::vector<KernelInfo> kernels;
  std::vector<LaunchSite> launches;
  std::vector<SharedMemoryOptIn> shared_opt_ins;
  std::vector<MemoryAccess> accesses;  // global and shared memory accesses of device code
  std::vector<BarrierRecord> barriers;      // block barriers of device code, with their conditions
  std::vector<SharedHazard> shared_hazards; // shared accesses of two threads with no barrier between
  bool arch_dependent = false;
};

}  // namespace kl::analyzers
