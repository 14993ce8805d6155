#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/NumericLimits.cuh>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// at::numeric_limits<T>: lowest / max / lower_bound / upper_bound usable in device code.
#include <limits>

#include <c10/core/ScalarType.h>

namespace at {

template <typename T>
struct numeric_limits {
  static inline __host__ __device__ T lowest() { return std::numeric_limits<T>::lowest(); }
  static inline __host__ __device__ T max() { return std::numeric_limits<T>::max(); }
  static inline __host__ __device__ T lower_bound() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : lowest();
  }
  static inline __host__ __device__ T upper_bound() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : max();
  }
};

}  // namespace at
