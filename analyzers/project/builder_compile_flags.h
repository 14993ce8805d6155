#pragma once
// What kernel-builder's CMake adds to a kernel project's compiles besides build.toml's own flags
// ([compile] of analyzers/data/builder_defaults.toml), for every tool that reproduces those compiles: the runner's nvcc builds and the clang command
// lines written for clangd (analyzers/frontend/clangd_commands.h).
#include <string>
#include <vector>

#include "analyzers/project/build_config.h"

namespace kl::analyzers {

// Whether `depends` lists torch: the section is built against PyTorch's headers.
bool depends_on_torch(const KernelSection& section);

// The defines of the builder's CMake preamble, for every compile of the project: USE_CUDA=1,
// CUDA_KERNEL, and TORCH_TARGET_VERSION for a stable-ABI build ([torch] stable-abi = "2.10" →
// 0x020A000000000000ULL). As -D flags.
std::vector<std::string> builder_defines(const BuildConfig& config);

// The nvcc flags torch's CMake package (cmake/public/cuda.cmake) adds to the CUDA compiles of
// sections that depend on torch: --expt-relaxed-constexpr, --expt-extended-lambda. Real projects
// rely on them: without them constexpr helpers and __device__ lambdas do not compile with nvcc.
std::vector<std::string> torch_nvcc_flags();

}  // namespace kl::analyzers
