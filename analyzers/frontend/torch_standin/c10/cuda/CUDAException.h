#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/cuda/CUDAException.h>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <cuda_runtime_api.h>

#include <c10/util/Exception.h>

namespace c10::cuda {
void c10_cuda_check_implementation(int32_t err, const char* filename, const char* function_name,
                                   int line_number, bool include_device_assertions);
}  // namespace c10::cuda

#define C10_CUDA_CHECK(EXPR)                                                                   \
  do {                                                                                         \
    const cudaError_t kernel_lsp_cuda_error = EXPR;                                            \
    ::c10::cuda::c10_cuda_check_implementation(static_cast<int32_t>(kernel_lsp_cuda_error),    \
                                               __FILE__, __func__, __LINE__, true);            \
  } while (0)
#define C10_CUDA_CHECK_WARN(EXPR) \
  do {                            \
    (void)(EXPR);                 \
  } while (0)
#define C10_CUDA_ERROR_HANDLED(EXPR) (EXPR)
#define C10_CUDA_IGNORE_ERROR(EXPR) \
  do {                              \
    (void)(EXPR);                   \
  } while (0)
#define C10_CUDA_CLEAR_ERROR() (void)cudaGetLastError()
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
