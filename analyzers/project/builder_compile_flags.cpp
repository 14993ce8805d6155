#include "analyzers/project/builder_compile_flags.h"

#include <algorithm>
#include <cstdio>

#include "analyzers/project/builder_defaults.h"
#include "analyzers/project/major_minor.h"

namespace kl::analyzers {

bool depends_on_torch(const KernelSection& section) {
  return std::find(section.depends.begin(), section.depends.end(), "torch") != section.depends.end();
}

std::vector<std::string> builder_defines(const BuildConfig& config) {
  const BuilderDefaults& builder = BuilderDefaults::builtin();
  std::vector<std::string> flags;
  for (const std::string& define : builder.compile_defines()) flags.push_back("-D" + define);
  if (config.framework.stable_abi) {
    if (auto version = parse_major_minor(*config.framework.stable_abi)) {
      char hex[40];
      std::snprintf(hex, sizeof hex, "0x%02X%02X000000000000ULL", version->major, version->minor);
      flags.push_back("-D" + builder.stable_abi_define() + "=" + hex);
    }
  }
  return flags;
}

std::vector<std::string> torch_nvcc_flags() { return BuilderDefaults::builtin().torch_nvcc_flags(); }

}  // namespace kl::analyzers
