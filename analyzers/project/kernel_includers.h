#pragma once
// Which kernels of a kernel-builder project compile a file that is not one of their own .cu
// sources (a header, or a .cu that another .cu includes), and the pieces that question needs.
//
// kernel-builder compiles only the .cu files that a kernel's `src` lists, each with that
// kernel's capabilities and `include` folders; a header is compiled as part of every .cu that
// includes it, whichever section lists it (kernel-builder's CMake templates:
// kernel-builder/src/pyproject/templates/kernel.cmake, cuda_kernel_component).
//
// Cost: one call reads the .cu sources of the project's CUDA kernels and every project file
// they include, each once (nothing is kept between calls), at most kMaxScannedFiles files.
// Only files under the build.toml's folder are read: CUDA's, CUTLASS's and torch's headers are
// never opened.
#include <cstddef>
#include <filesystem>
#include <vector>

#include "analyzers/project/build_config.h"

namespace kl::analyzers {

inline constexpr size_t kMaxScannedFiles = 4000;

// The .cu files `kernel` compiles: the `src` entries that name .cu files, and the .cu files under
// entries that name folders. Entries that do not exist are left out.
std::vector<std::filesystem::path> kernel_cu_sources(const BuildConfig& config, const KernelSection& kernel);

// The folders of `kernel`'s `include`, as kernel-builder passes them to the compiler:
// "${CMAKE_SOURCE_DIR}/<entry>", the CMake source folder being the build.toml's folder.
std::vector<std::filesystem::path> kernel_include_dirs(const BuildConfig& config,
                                                       const KernelSection& kernel);

// The CUDA kernels whose .cu sources include `file`, directly or through other project files,
// in build.toml order. `#include "x"` is looked up next to the including file, then in the
// kernel's include folders; `#include <x>` in the include folders only (as the compiler does,
// without the folders that compile_commands.json or CUTLASS would add). A file the kernels'
// sources do not reach (or that is only reachable past kMaxScannedFiles) gets none.
std::vector<const KernelSection*> cuda_kernels_including(const BuildConfig& config,
                                                         const std::filesystem::path& file);

}  // namespace kl::analyzers
