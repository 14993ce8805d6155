#pragma once
// Per-architecture limits, loaded from data/archs.toml (embedded at build time; a file named by
// $KERNEL_LSP_ARCHS_TOML replaces it, for experiments). Immutable after loading; share freely
// across threads.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/project/capability.h"
#include "support/result.h"

namespace kl::analyzers {

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
};

class ArchTable {
 public:
  static Result<ArchTable> parse(std::string_view toml_text, const std::string& source_name);
  // The built-in table (embedded archs.toml). Aborts only if the embedded data is broken,
  // which the unit tests rule out.
  static const ArchTable& builtin();

  // Limits of the capability's major.minor (variants share their base's limits).
  const ArchLimits* find(const Capability& capability) const;
  const std::vector<ArchLimits>& all() const { return archs_; }

 private:
  std::vector<ArchLimits> archs_;
};

}  // namespace kl::analyzers
