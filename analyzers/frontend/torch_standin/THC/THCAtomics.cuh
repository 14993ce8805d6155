#pragma once
// kernel-lsp's stand-in for PyTorch's <THC/THCAtomics.cuh>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// What is left of the THC library in PyTorch 2.x: this name, kept for extensions written before
// ATen (Deformable DETR's among them), now the ATen atomics.
#include <ATen/cuda/Atomic.cuh>
