#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/Atomic.cuh>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// PyTorch's typed atomics, declared for every element type they accept (device code only).
#include <c10/core/ScalarType.h>

#define KERNEL_LSP_AT_ATOMICS(T)                            \
  __device__ T gpuAtomicAdd(T* address, T value);           \
  __device__ void gpuAtomicAddNoReturn(T* address, T value); \
  __device__ T gpuAtomicMul(T* address, T value);           \
  __device__ T gpuAtomicMax(T* address, T value);           \
  __device__ T gpuAtomicMin(T* address, T value);
KERNEL_LSP_AT_ATOMICS(uint8_t)
KERNEL_LSP_AT_ATOMICS(int8_t)
KERNEL_LSP_AT_ATOMICS(int16_t)
KERNEL_LSP_AT_ATOMICS(int32_t)
KERNEL_LSP_AT_ATOMICS(int64_t)
KERNEL_LSP_AT_ATOMICS(bool)
KERNEL_LSP_AT_ATOMICS(float)
KERNEL_LSP_AT_ATOMICS(double)
KERNEL_LSP_AT_ATOMICS(c10::Half)
KERNEL_LSP_AT_ATOMICS(c10::BFloat16)
#undef KERNEL_LSP_AT_ATOMICS

namespace at::native {
// Atomic add of `value` at tensor[index]; with fast_atomics, a paired half2 add where it can.
template <typename scalar_t, typename index_t>
__device__ void fastAtomicAdd(scalar_t* tensor, index_t index, index_t numel, scalar_t value,
                              bool fast_atomics);
}  // namespace at::native
