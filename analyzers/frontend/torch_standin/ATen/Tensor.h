#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/Tensor.h>, for analysis only: it is never compiled
// into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when kernel-lsp
// finds them (see analyzers/frontend/torch_standin/README.md).
#include <ATen/core/Tensor.h>
