#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/util/BFloat16.h>, for analysis only: it is
// never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// As in PyTorch, the header-only c10::BFloat16 is the same type as ATen's, so kernels dispatched
// through the stable ABI instantiate with the same element type (and size) as through ATen.
#include <c10/util/BFloat16.h>

namespace torch::headeronly {
using c10::BFloat16;
}  // namespace torch::headeronly
