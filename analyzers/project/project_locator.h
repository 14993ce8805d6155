#pragma once
// Where a source file's project is, which of its build.toml's CUDA kernels compile the file, and
// so which compute capabilities and include folders it is built with. The arch rules ask this
// for every file they check: a .cu file that a CUDA kernel lists gets that kernel's
// `cuda-capabilities`; a header gets those of the kernels whose .cu sources include it; a kernel
// without the key gets kernel-builder's defaults for the CUDA version in use. Plain functions;
// the file system is read by find_build_toml and, for files that are not a kernel's .cu source,
// by kernels_building (kernel_includers.h says what that costs).
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

// How the CUDA kernels that compile a file were chosen.
enum class KernelMatch {
  None,           // the project has no CUDA kernel
  Listed,         // a .cu source of these kernels; or a file that no source includes, listed by them
  IncludedBy,     // not a .cu source of any kernel, but included by these kernels' .cu sources
  AllCudaKernels  // neither listed nor included: every CUDA kernel (a new file, a stray header)
};

struct KernelsBuilding {
  std::vector<const KernelSection*> kernels;  // in build.toml order; point into the BuildConfig
  KernelMatch match = KernelMatch::None;
};

// The CUDA kernels that compile `file` (an absolute path): for a .cu file that a kernel's `src`
// lists, those kernels; for any other file, the kernels whose .cu sources include it
// (cuda_kernels_including), else those whose `src` lists it, else every CUDA kernel.
KernelsBuilding kernels_building(const BuildConfig& config, const std::filesystem::path& file);

// The `include` folders of `kernels`, as kernel-builder passes them to the compiler
// (kernel_include_dirs), each once, in build.toml order.
std::vector<std::filesystem::path> include_dirs_of(const BuildConfig& config,
                                                   const KernelsBuilding& kernels);

struct SourceCapabilities {
  // In the order of build.toml, without duplicates (same capability, or same text when it does
  // not parse). A builder default has the range of its kernel's header.
  std::vector<CapabilityEntry> entries;
  // The `cuda-capabilities` array of the first kernel that has one, for fixes that rewrite it;
  // empty when every contributing kernel uses the defaults.
  std::optional<Range> list_range;
  // Where the list comes from, for messages: "build.toml [kernel.rmsnorm] cuda-capabilities";
  // for a header, followed by " (their sources include this file)".
  std::string origin;
};

// The capabilities the kernels that compile a file build it for: the union over `kernels`.
// Empty when there are none.
SourceCapabilities capabilities_of(const KernelsBuilding& kernels, int cuda_major, int cuda_minor);

// capabilities_of(kernels_building(config, source), ...): the union over the CUDA kernels that
// compile `source`. Empty when the project has no CUDA kernel.
SourceCapabilities capabilities_for_source(const BuildConfig& config,
                                           const std::filesystem::path& source, int cuda_major,
                                           int cuda_minor);

}  // namespace kl::analyzers
