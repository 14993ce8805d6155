#pragma once
// What kernel-builder does that build.toml does not say: the default `cuda-capabilities` per CUDA
// toolkit and the flags its CMake adds to every compile, loaded from
// analyzers/data/builder_defaults.toml (embedded
// at build time; a file named by $KERNEL_LSP_BUILDER_DEFAULTS_TOML replaces it). Immutable after
// loading; share freely across threads.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/project/capability.h"
#include "analyzers/project/major_minor.h"
#include "support/result.h"

namespace kl::analyzers {

class BuilderDefaults {
 public:
  // Every entry must have capabilities that parse; entries go from the newest `min-cuda` down,
  // and only the last, which applies to every older toolkit, has none.
  static Result<BuilderDefaults> parse(std::string_view toml_text, const std::string& source_name);
  // The built-in table. Aborts at first use if the embedded data is broken (the unit tests rule
  // that out).
  static const BuilderDefaults& builtin();

  // The capabilities a CUDA kernel without `cuda-capabilities` is built for with CUDA
  // `cuda_major`.`cuda_minor`, in the builder's order.
  const std::vector<Capability>& cuda_capabilities(int cuda_major, int cuda_minor) const;

  // [compile]: the defines of every compile ("USE_CUDA=1", without -D), the nvcc flags of
  // sections that depend on torch, and the name of the stable-ABI version define.
  const std::vector<std::string>& compile_defines() const { return defines_; }
  const std::vector<std::string>& torch_nvcc_flags() const { return torch_nvcc_flags_; }
  const std::string& stable_abi_define() const { return stable_abi_define_; }

 private:
  struct CudaDefaults {
    std::optional<MajorMinor> min_cuda;  // none: every toolkit older than the entries before it
    std::vector<Capability> capabilities;
  };
  std::vector<CudaDefaults> cuda_;
  std::vector<std::string> defines_, torch_nvcc_flags_;
  std::string stable_abi_define_;
};

}  // namespace kl::analyzers
