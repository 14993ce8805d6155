#pragma once
// Where a source file's project is, and which compute capabilities its build.toml builds it for.
// The arch rules ask this for every .cu file they check: a file that a CUDA kernel lists gets
// that kernel's `cuda-capabilities`; a kernel without the key gets kernel-builder's defaults for
// the CUDA version in use. Plain functions; the file system is only read by find_build_toml.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/project/build_config.h"
#include "analyzers/project/capability.h"

namespace kl::analyzers {

// The nearest build.toml in `source`'s folder (or in `source` itself when it is a folder) or in
// any folder above it, up to the file-system root. Relative paths are taken from the current
// directory.
std::optional<std::filesystem::path> find_build_toml(const std::filesystem::path& source);

// The capabilities kernel-builder builds a CUDA kernel for when its section has no
// `cuda-capabilities`; the last one also embeds PTX. Depends on the CUDA version; the lists are
// data (analyzers/data/builder_defaults.toml, read through BuilderDefaults).
std::vector<Capability> builder_default_capabilities(int cuda_major, int cuda_minor);

struct SourceCapabilities {
  // In the order of build.toml, without duplicates (same capability, or same text when it does
  // not parse). A builder default has the range of its kernel's header.
  std::vector<CapabilityEntry> entries;
  // The `cuda-capabilities` array of the first kernel that has one, for fixes that rewrite it;
  // empty when every contributing kernel uses the defaults.
  std::optional<Range> list_range;
  // Where the list comes from, for messages: "build.toml [kernel.rmsnorm] cuda-capabilities".
  std::string origin;
};

// The capabilities `source` is compiled for: the union over the CUDA kernels whose `src` lists
// it, or over every CUDA kernel when none does (a header, a file not listed yet). Empty when the
// project has no CUDA kernel.
SourceCapabilities capabilities_for_source(const BuildConfig& config,
                                           const std::filesystem::path& source, int cuda_major,
                                           int cuda_minor);

}  // namespace kl::analyzers
