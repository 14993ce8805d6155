#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/extension.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <torch/all.h>
#include <torch/python.h>
