#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/core/Layout.h> and MemoryFormat.h, for
// analysis only: it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and
// later); real PyTorch headers win when kernel-lsp finds them (see
// analyzers/frontend/torch_standin/README.md).
//
// torch::headeronly::Layout and MemoryFormat are c10's, as in PyTorch; the stable ops take them
// as optional arguments.
#include <c10/core/TensorOptions.h>

namespace torch::headeronly {
using c10::kSparse;
using c10::kStrided;
using c10::Layout;
using c10::MemoryFormat;
}  // namespace torch::headeronly
