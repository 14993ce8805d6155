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
// Complex values have atomic adds (two of their parts), not the others.
__device__ c10::complex<float> gpuAtomicAdd(c10::complex<float>* address, c10::complex<float> value);
__device__ c10::complex<double> gpuAtomicAdd(c10::complex<double>* address, c10::complex<double> value);
__device__ void gpuAtomicAddNoReturn(c10::complex<float>* address, c10::complex<float> value);
__device__ void gpuAtomicAddNoReturn(c10::complex<double>* address, c10::complex<double> value);

// The atomicAdd overloads PyTorch adds beside CUDA's own, for the types CUDA has none for (or,
// for Half and BFloat16, one on a different type): kernels call atomicAdd on scalar_t.
__device__ c10::Half atomicAdd(c10::Half* address, c10::Half value);
__device__ c10::BFloat16 atomicAdd(c10::BFloat16* address, c10::BFloat16 value);
__device__ void atomicAdd(uint8_t* address, uint8_t value);
__device__ void atomicAdd(int8_t* address, int8_t value);
__device__ void atomicAdd(int16_t* address, int16_t value);
__device__ void atomicAdd(int64_t* address, int64_t value);
__device__ void atomicAdd(bool* address, bool value);

namespace at::native {
// Atomic add of `value` at tensor[index]; with fast_atomics, a paired half2 add where it can.
template <typename scalar_t, typename index_t>
__device__ void fastAtomicAdd(scalar_t* tensor, index_t index, index_t numel, scalar_t value,
                              bool fast_atomics);
}  // namespace at::native
