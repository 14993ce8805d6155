#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/detail/UnpackRaw.cuh>, for analysis only: it
// is never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// at::cuda::philox::unpack(state): the (seed, offset) pair a kernel seeds curand with.
#include <tuple>

#include <ATen/cuda/detail/PhiloxCudaStateRaw.cuh>

namespace at::cuda::philox {

__host__ __device__ __forceinline__ std::tuple<uint64_t, uint64_t> unpack(at::PhiloxCudaState arg) {
  if (arg.captured_) {
    return std::make_tuple(static_cast<uint64_t>(*arg.seed_.ptr),
                           static_cast<uint64_t>(*(arg.offset_.ptr)) + arg.offset_intragraph_);
  }
  return std::make_tuple(arg.seed_.val, arg.offset_.val);
}

}  // namespace at::cuda::philox
