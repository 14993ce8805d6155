#include "analyzers/frontend/nvcc_macros.h"

namespace kl::analyzers {

// Where these come from: `nvcc --dryrun -arch=sm_90 -c x.cu` with CUDA 13.0 (V13.0.88) prints
// the command of nvcc's device-side preprocessor (the `gcc -D__CUDA_ARCH__=900 -E ...` whose
// output cicc compiles), which passes, besides the arch macros:
//   -DCUDA_DOUBLE_MATH_FUNCTIONS -D__CUDACC__ -D__NVCC__ -D__CUDACC_VER_MAJOR__=13
//   -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -D__CUDA_API_VER_MAJOR__=13
//   -D__CUDA_API_VER_MINOR__=0 -D__NVCC_DIAG_PRAGMA_SUPPORT__=1
//   -D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1
// (the same list with -arch=sm_100a, sm_100f, -std=c++20 and --use_fast_math). Options add
// more: --extended-lambda adds __CUDACC_EXTENDED_LAMBDA__, --expt-relaxed-constexpr adds
// __CUDACC_RELAXED_CONSTEXPR__, -G adds __CUDACC_DEBUG__; none is on by default, so none is here.
// `clang++ -x cuda --cuda-device-only -E -dM` (our command, clang 19) defines __CUDACC__ (its
// CUDA wrapper header does) and none of the others.
//
// Left out although nvcc defines them:
//  - CUDA_DOUBLE_MATH_FUNCTIONS: nothing tests it (neither CUDA 13's headers nor the corpus).
//  - __CUDACC_DEVICE_ATOMIC_BUILTINS__: says the __nv_atomic_* builtins exist; clang 19 has
//    none of them, so code that tests it would take a branch clang cannot parse.
std::vector<std::pair<std::string, std::string>> nvcc_compiler_macros(const NvccVersion& version) {
  const std::string major = std::to_string(version.major);
  const std::string minor = std::to_string(version.minor);
  std::vector<std::pair<std::string, std::string>> macros = {
      {"__NVCC__", "1"},
      {"__CUDACC_VER_MAJOR__", major},
      {"__CUDACC_VER_MINOR__", minor},
  };
  if (version.build) macros.emplace_back("__CUDACC_VER_BUILD__", std::to_string(*version.build));
  // CUDA's cuda_runtime_api.h derives __CUDART_API_VERSION from these.
  macros.emplace_back("__CUDA_API_VER_MAJOR__", major);
  macros.emplace_back("__CUDA_API_VER_MINOR__", minor);
  // libcu++ (cuda/std/__cccl/diagnostic.h) picks nvcc's `#pragma nv_diagnostic` spelling with
  // it; clang ignores both spellings.
  macros.emplace_back("__NVCC_DIAG_PRAGMA_SUPPORT__", "1");
  return macros;
}

}  // namespace kl::analyzers
