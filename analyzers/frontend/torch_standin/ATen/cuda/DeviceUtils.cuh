#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/DeviceUtils.cuh>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// PyTorch's warp-shuffle wrappers: the *_sync intrinsics over a full mask by default.
#include <cuda_runtime.h>

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

__device__ __forceinline__ unsigned int ACTIVE_MASK() { return __activemask(); }
__device__ __forceinline__ unsigned int WARP_BALLOT(int predicate, unsigned int mask = 0xffffffff) {
  return __ballot_sync(mask, predicate);
}

template <typename T>
__device__ __forceinline__ T WARP_SHFL_XOR(T value, int lane_mask, int width = warpSize,
                                           unsigned int mask = 0xffffffff) {
  return __shfl_xor_sync(mask, value, lane_mask, width);
}
template <typename T>
__device__ __forceinline__ T WARP_SHFL(T value, int src_lane, int width = warpSize, unsigned int mask = 0xffffffff) {
  return __shfl_sync(mask, value, src_lane, width);
}
template <typename T>
__device__ __forceinline__ T WARP_SHFL_UP(T value, unsigned int delta, int width = warpSize,
                                          unsigned int mask = 0xffffffff) {
  return __shfl_up_sync(mask, value, delta, width);
}
template <typename T>
__device__ __forceinline__ T WARP_SHFL_DOWN(T value, unsigned int delta, int width = warpSize,
                                            unsigned int mask = 0xffffffff) {
  return __shfl_down_sync(mask, value, delta, width);
}

// The narrow float types shuffle as their CUDA counterparts.
template <>
__device__ __forceinline__ c10::Half WARP_SHFL_XOR<c10::Half>(c10::Half value, int lane_mask, int width,
                                                               unsigned int mask) {
  return c10::Half(__shfl_xor_sync(mask, static_cast<__half>(value), lane_mask, width));
}
template <>
__device__ __forceinline__ c10::Half WARP_SHFL_DOWN<c10::Half>(c10::Half value, unsigned int delta, int width,
                                                                unsigned int mask) {
  return c10::Half(__shfl_down_sync(mask, static_cast<__half>(value), delta, width));
}
template <>
__device__ __forceinline__ c10::BFloat16 WARP_SHFL_XOR<c10::BFloat16>(c10::BFloat16 value, int lane_mask,
                                                                       int width, unsigned int mask) {
  return c10::BFloat16(__shfl_xor_sync(mask, static_cast<__nv_bfloat16>(value), lane_mask, width));
}
template <>
__device__ __forceinline__ c10::BFloat16 WARP_SHFL_DOWN<c10::BFloat16>(c10::BFloat16 value, unsigned int delta,
                                                                        int width, unsigned int mask) {
  return c10::BFloat16(__shfl_down_sync(mask, static_cast<__nv_bfloat16>(value), delta, width));
}
