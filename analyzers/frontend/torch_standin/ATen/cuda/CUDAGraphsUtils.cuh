#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/CUDAGraphsUtils.cuh>, for analysis only
// (PyTorch 2.x API; real headers win when found; see analyzers/frontend/torch_standin/README.md).
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/cuda/detail/UnpackRaw.cuh>
#include <c10/cuda/CUDAStream.h>

namespace at::cuda {
enum class CaptureStatus : int { None = 0, Active = 1, Invalidated = 2 };
CaptureStatus currentStreamCaptureStatus();
void assertNotCapturing(const std::string& attempt);
}  // namespace at::cuda
