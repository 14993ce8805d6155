#pragma once
// The macros nvcc defines for the device pass of a .cu file that clang 19's CUDA mode does not,
// so that `#if __CUDACC_VER_MAJOR__ >= 12` and `#ifdef __NVCC__` in user code take the branch
// that nvcc takes. The architecture macros (__CUDA_ARCH__, __CUDA_ARCH_FEAT_SM90_ALL, ...) are
// nvcc_arch_macros in clang_command.h; this is the rest. The table, where each entry comes from
// and why some of nvcc's macros are left out, is in nvcc_macros.cpp.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kl::analyzers {

// The version of the nvcc the project builds with (`nvcc --version`: "release 13.0, V13.0.88").
struct NvccVersion {
  int major = 13;
  int minor = 0;
  std::optional<int> build;  // the 88 of V13.0.88; unknown leaves __CUDACC_VER_BUILD__ undefined
};

// name -> value, in the order nvcc passes them to its device-side preprocessor.
std::vector<std::pair<std::string, std::string>> nvcc_compiler_macros(const NvccVersion& version);

}  // namespace kl::analyzers
