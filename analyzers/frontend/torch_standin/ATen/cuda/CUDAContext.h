#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/cuda/CUDAContext.h>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The current stream (at::cuda::getCurrentCUDAStream, through Macros.h's re-export of
// c10::cuda), device properties and library handles.
#include <cuda_runtime_api.h>
#if __has_include(<cublas_v2.h>)
#include <cublas_v2.h>
#define KERNEL_LSP_AT_HAS_CUBLAS 1
#endif
#if __has_include(<cublasLt.h>)
#include <cublasLt.h>
#define KERNEL_LSP_AT_HAS_CUBLASLT 1
#endif

#include <ATen/ATen.h>
#include <ATen/cuda/Exceptions.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/util/Logging.h>

namespace at::cuda {

int64_t getNumGPUs();
bool is_available();
cudaDeviceProp* getCurrentDeviceProperties();
cudaDeviceProp* getDeviceProperties(c10::DeviceIndex device);
int warp_size();
bool canDeviceAccessPeer(c10::DeviceIndex device, c10::DeviceIndex peer_device);
#if defined(KERNEL_LSP_AT_HAS_CUBLAS)
cublasHandle_t getCurrentCUDABlasHandle();
#endif
#if defined(KERNEL_LSP_AT_HAS_CUBLASLT)
cublasLtHandle_t getCurrentCUDABlasLtHandle();
#endif

}  // namespace at::cuda
