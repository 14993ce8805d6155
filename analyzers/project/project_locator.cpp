#include "analyzers/project/project_locator.h"

#include <algorithm>
#include <system_error>

#include "analyzers/project/builder_defaults.h"
#include "analyzers/project/kernel_includers.h"

namespace kl::analyzers {
namespace {

namespace fs = std::filesystem;

std::string entry_key(const CapabilityEntry& entry) {
  return entry.capability ? entry.capability->text() : "?" + entry.text;
}

}  // namespace

std::optional<fs::path> find_build_toml(const fs::path& source) {
  std::error_code error;
  fs::path start = fs::absolute(source, error);
  if (error) return std::nullopt;
  start = start.lexically_normal();
  fs::path folder = fs::is_directory(start, error) ? start : start.parent_path();
  while (true) {
    fs::path candidate = folder / "build.toml";
    if (fs::is_regular_file(candidate, error)) return candidate;
    fs::path parent = folder.parent_path();
    if (parent == folder || parent.empty()) return std::nullopt;
    folder = parent;
  }
}

std::vector<Capability> builder_default_capabilities(int cuda_major, int cuda_minor) {
  return BuilderDefaults::builtin().cuda_capabilities(cuda_major, cuda_minor);
}

KernelsBuilding kernels_building(const BuildConfig& config, const fs::path& file) {
  KernelsBuilding result;
  std::vector<const KernelSection*> listing = config.kernels_for_source(file);
  if (!listing.empty() && file.extension() == ".cu") {
    result.kernels = std::move(listing);
    result.match = KernelMatch::Listed;
    return result;
  }
  // A header is compiled by the .cu files that include it, with their kernels' settings.
  if (std::vector<const KernelSection*> includers = cuda_kernels_including(config, file);
      !includers.empty()) {
    result.kernels = std::move(includers);
    result.match = KernelMatch::IncludedBy;
    return result;
  }
  if (!listing.empty()) {
    result.kernels = std::move(listing);
    result.match = KernelMatch::Listed;
    return result;
  }
  for (const KernelSection& kernel : config.kernels)
    if (kernel.backend == "cuda") result.kernels.push_back(&kernel);
  result.match = result.kernels.empty() ? KernelMatch::None : KernelMatch::AllCudaKernels;
  return result;
}

std::vector<fs::path> include_dirs_of(const BuildConfig& config, const KernelsBuilding& kernels) {
  std::vector<fs::path> dirs;
  for (const KernelSection* kernel : kernels.kernels)
    for (fs::path& dir : kernel_include_dirs(config, *kernel))
      if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(std::move(dir));
  return dirs;
}

SourceCapabilities capabilities_of(const KernelsBuilding& kernels, int cuda_major, int cuda_minor) {
  SourceCapabilities result;
  if (kernels.kernels.empty()) {
    result.origin = "build.toml (no CUDA kernel)";
    return result;
  }
  std::vector<std::string> seen;
  auto add = [&](CapabilityEntry entry) {
    std::string key = entry_key(entry);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return;
    seen.push_back(std::move(key));
    result.entries.push_back(std::move(entry));
  };
  std::string origin;
  for (const KernelSection* kernel : kernels.kernels) {
    origin += origin.empty() ? "build.toml " : ", ";
    origin += "[kernel." + kernel->name + "] ";
    if (kernel->cuda_capabilities) {
      origin += "cuda-capabilities";
      if (!result.list_range) result.list_range = kernel->cuda_capabilities_range;
      for (const CapabilityEntry& entry : *kernel->cuda_capabilities) add(entry);
      continue;
    }
    origin += "(no cuda-capabilities: kernel-builder defaults for CUDA " +
              std::to_string(cuda_major) + "." + std::to_string(cuda_minor) + ")";
    for (const Capability& capability : builder_default_capabilities(cuda_major, cuda_minor))
      add(CapabilityEntry{capability.text(), capability, kernel->header_range});
  }
  if (kernels.match == KernelMatch::IncludedBy)
    origin += kernels.kernels.size() == 1 ? " (its sources include this file)"
                                          : " (their sources include this file)";
  result.origin = std::move(origin);
  return result;
}

SourceCapabilities capabilities_for_source(const BuildConfig& config, const fs::path& source,
                                           int cuda_major, int cuda_minor) {
  return capabilities_of(kernels_building(config, source), cuda_major, cuda_minor);
}

}  // namespace kl::analyzers
