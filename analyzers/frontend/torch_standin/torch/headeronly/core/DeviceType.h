#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/core/DeviceType.h>, for analysis only:
// it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real
// PyTorch headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// torch::headeronly::DeviceType is c10::DeviceType, as in PyTorch.
#include <c10/core/Device.h>

namespace torch::headeronly {
using c10::DeviceType;
using c10::kCPU;
using c10::kCUDA;
using c10::kHIP;
using c10::kMeta;
using c10::kMPS;
using c10::kXPU;
}  // namespace torch::headeronly
