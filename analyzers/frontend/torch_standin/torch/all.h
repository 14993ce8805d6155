#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/all.h>, for analysis only: it is never compiled
// into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when kernel-lsp
// finds them (see analyzers/frontend/torch_standin/README.md).
//
// The C++ frontend as kernel files use it: tensors, dtypes, registration. (The real header also
// brings autograd, nn, optim and data loading, which kernel files do not use.)
#include <ATen/ATen.h>
#include <torch/library.h>
#include <torch/types.h>
#include <torch/version.h>
