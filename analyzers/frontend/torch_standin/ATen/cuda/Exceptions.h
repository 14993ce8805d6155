#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/Exceptions.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <c10/cuda/CUDAException.h>

namespace at::cuda {
void check_status(int status, const char* expression, const char* file, int line);
}  // namespace at::cuda

#define AT_CUDA_CHECK(EXPR) C10_CUDA_CHECK(EXPR)
#define AT_CUDA_DRIVER_CHECK(EXPR) \
  ::at::cuda::check_status(static_cast<int>(EXPR), #EXPR, __FILE__, __LINE__)
#define TORCH_CUDABLAS_CHECK(EXPR) \
  ::at::cuda::check_status(static_cast<int>(EXPR), #EXPR, __FILE__, __LINE__)
#define TORCH_CUSPARSE_CHECK(EXPR) \
  ::at::cuda::check_status(static_cast<int>(EXPR), #EXPR, __FILE__, __LINE__)
