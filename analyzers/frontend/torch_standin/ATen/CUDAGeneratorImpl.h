#pragma once
// kernel-lsp's stand-in for PyTorch's older <ATen/CUDAGeneratorImpl.h> path, for analysis only
// (PyTorch 2.x API; real headers win when found; see analyzers/frontend/torch_standin/README.md).
#include <ATen/cuda/CUDAGeneratorImpl.h>
