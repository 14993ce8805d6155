#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/PhiloxUtils.cuh>, for analysis only (PyTorch
// 2.x API; real headers win when found; see analyzers/frontend/torch_standin/README.md).
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/cuda/detail/UnpackRaw.cuh>
