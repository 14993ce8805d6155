#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/cuda/CUDAFunctions.h>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <cuda_runtime_api.h>

#include <c10/core/Device.h>

namespace c10::cuda {
DeviceIndex device_count() noexcept;
DeviceIndex current_device();
void set_device(DeviceIndex device);
void device_synchronize();
}  // namespace c10::cuda
