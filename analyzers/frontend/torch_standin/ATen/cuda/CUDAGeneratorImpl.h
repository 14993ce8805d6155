#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/CUDAGeneratorImpl.h>, for analysis only: it
// is never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <mutex>
#include <utility>

#include <ATen/core/Generator.h>
#include <ATen/cuda/detail/PhiloxCudaStateRaw.cuh>

namespace at {

struct CUDAGeneratorImpl {
  explicit CUDAGeneratorImpl(DeviceIndex device_index = -1);
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const;
  uint64_t seed();
  void set_philox_offset_per_thread(uint64_t offset);
  uint64_t philox_offset_per_thread() const;
  PhiloxCudaState philox_cuda_state(uint64_t increment);
  std::pair<uint64_t, uint64_t> philox_engine_inputs(uint64_t increment);
  std::mutex mutex_;
};

namespace cuda::detail {
const Generator& getDefaultCUDAGenerator(DeviceIndex device_index = -1);
Generator createCUDAGenerator(DeviceIndex device_index = -1);
}  // namespace cuda::detail

}  // namespace at
