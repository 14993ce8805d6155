#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/DeviceGuard.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <ATen/core/Tensor.h>
#include <c10/core/DeviceGuard.h>

namespace at {
optional<Device> device_of(const Tensor& t);
optional<Device> device_of(const optional<Tensor>& t);
optional<Device> device_of(TensorList t);
}  // namespace at
