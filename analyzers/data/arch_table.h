#pragma once
// Per-architecture limits and toolkit history, loaded from data/archs.toml (embedded at build
// time; a file named by $KERNEL_LSP_ARCHS_TOML replaces it, for experiments). Immutable after
// loading; share freely across threads.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/project/capability.h"
#include "analyzers/project/major_minor.h"
#include "support/result.h"

namespace kl::analyzers {

// Which CUDA toolkits target a capability; archs.toml says where each fact comes from.
struct CudaHistory {
  std::optional<MajorMinor> first_cuda;          // none: CUDA 11.8 or older
  std::optional<MajorMinor> last_cuda;           // none: the newest toolkits still target it
  std::optional<Capability> renamed_to;          // what toolkits after last_cuda call the same GPU
  std::optional<MajorMinor> arch_specific_cuda;  // first toolkit with the 'a' variant; none: no 'a'
  std::optional<MajorMinor> family_cuda;         // first toolkit with the 'f' variant; none: no 'f'
};

struct ArchLimits {
  Capability capability;  // plain major.minor
  std::string known_gpus;
  uint64_t static_smem_per_block = 49152;
  uint64_t max_dynamic_smem_per_block = 49152;
  uint64_t smem_per_sm = 0;
  uint32_t max_threads_per_block = 1024;
  uint32_t max_threads_per_sm = 2048;
  std::optional<uint64_t> l2_bytes;
  std::optional<uint32_t> dram_gb_per_s;
  CudaHistory history;

  // What theoretical occupancy needs (runner/occupancy.h); archs.toml says what each one means
  // and where it comes from. The loader refuses zero for the units, sub-partitions and counts.
  uint32_t registers_per_sm = 65536;
  uint32_t registers_per_block = 65536;
  uint32_t max_registers_per_thread = 255;
  uint32_t register_allocation_unit = 256;  // registers given to a warp at a time
  uint32_t register_sub_partitions = 4;     // the register file is split evenly between these
  uint32_t max_blocks_per_sm = 16;
  uint32_t smem_allocation_unit = 256;   // bytes
  uint32_t reserved_smem_per_block = 0;  // bytes the driver keeps in each block (8.0 on)

  uint32_t max_warps_per_sm() const { return max_threads_per_sm / 32; }

  // Whether any toolkit targets this variant of the capability ("9.0a" yes, "8.0a" no).
  bool has_variant(ArchVariant variant) const;
  // The first toolkit that targets `variant` of it; none when that is CUDA 11.8 or older, or
  // when the variant does not exist (has_variant says which).
  std::optional<MajorMinor> first_cuda(ArchVariant variant) const;
};

// "12.8", as the data and nvcc write toolkit versions.
std::string cuda_version_text(MajorMinor version);

class ArchTable {
 public:
  // Refuses entries whose history contradicts itself: a renamed capability that is not in the
  // table or not retired (no last_cuda), a first toolkit after the last.
  static Result<ArchTable> parse(std::string_view toml_text, const std::string& source_name);
  // The built-in table (embedded archs.toml). Aborts only if the embedded data is broken,
  // which the unit tests rule out.
  static const ArchTable& builtin();

  // Limits of the capability's major.minor (variants share their base's limits).
  const ArchLimits* find(const Capability& capability) const;
  // The retired capability that toolkits before `capability`'s first_cuda called it (11.0 ->
  // 10.1), or null.
  const ArchLimits* renamed_from(const Capability& capability) const;
  // The lowest capability that has `variant` (9.0 for 'a'), or null.
  const ArchLimits* first_with_variant(ArchVariant variant) const;
  const std::vector<ArchLimits>& all() const { return archs_; }

 private:
  std::vector<ArchLimits> archs_;
};

}  // namespace kl::analyzers
