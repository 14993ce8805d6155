#include "analyzers/project/builder_compile_flags.h"

#include <algorithm>
#include <cstdio>

#include "analyzers/project/major_minor.h"

namespace kl::analyzers {

bool depends_on_torch(const KernelSection& section) {
  return std::find(section.depends.begin(), section.depends.end(), "torch") != section.depends.end();
}

std::vector<std::string> builder_defines(const BuildConfig& config) {
  std::vector<std::string> flags = {"-DUSE_CUDA=1", "-DCUDA_KERNEL"};
  if (config.framework.stable_abi) {
    if (auto version = parse_major_minor(*config.framework.stable_abi)) {
      char hex[40];
      std::snprintf(hex, sizeof hex, "0x%02X%02X000000000000ULL", version->major, version->minor);
      flags.push_back(std::string("-DTORCH_TARGET_VERSION=") + hex);
    }
  }
  return flags;
}

std::vector<std::string> torch_nvcc_flags() { return {"--expt-relaxed-constexpr", "--expt-extended-lambda"}; }

}  // namespace kl::analyzers
