#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/detail/PhiloxCudaStateRaw.cuh>, for analysis
// only: it is never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// at::PhiloxCudaState, the kernel argument dropout-style kernels seed curand from, with
// PyTorch's layout: a seed and an offset, each a value or (under graph capture) a pointer.
#include <cstdint>

namespace at {

struct PhiloxCudaState {
  PhiloxCudaState() = default;
  PhiloxCudaState(uint64_t seed, uint64_t offset) {
    seed_.val = seed;
    offset_.val = offset;
  }
  PhiloxCudaState(int64_t* seed, int64_t* offset_extragraph, uint32_t offset_intragraph) {
    seed_.ptr = seed;
    offset_.ptr = offset_extragraph;
    offset_intragraph_ = offset_intragraph;
    captured_ = true;
  }

  union Payload {
    uint64_t val;
    int64_t* ptr;
  };
  Payload seed_{};
  Payload offset_{};
  uint32_t offset_intragraph_ = 0;
  bool captured_ = false;
};

}  // namespace at
