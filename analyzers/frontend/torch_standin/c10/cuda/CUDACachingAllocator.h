#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/cuda/CUDACachingAllocator.h>, for analysis only
// (PyTorch 2.x API; real headers win when found; see analyzers/frontend/torch_standin/README.md).
#include <cstddef>

#include <c10/cuda/CUDAStream.h>

namespace c10::cuda::CUDACachingAllocator {
void* raw_alloc(size_t nbytes);
void* raw_alloc_with_stream(size_t nbytes, cudaStream_t stream);
void raw_delete(void* ptr);
void emptyCache();
}  // namespace c10::cuda::CUDACachingAllocator
