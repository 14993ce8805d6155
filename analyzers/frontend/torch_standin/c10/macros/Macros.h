#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/macros/Macros.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The attribute and launch-bound macros kernels use, and the namespace re-exports that make
// c10's names reachable as at:: and c10::cuda's as at::cuda::.
#include <cassert>
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#else
#define C10_HOST_DEVICE
#define C10_DEVICE
#define C10_HOST
#endif

#define C10_API
#define C10_EXPORT
#define C10_IMPORT
#define TORCH_API
#define TORCH_CUDA_CPP_API
#define TORCH_CUDA_CU_API
#define C10_CUDA_API

#define C10_UNUSED [[maybe_unused]]
#define C10_NODISCARD [[nodiscard]]
#define C10_NORETURN [[noreturn]]
#define C10_DEPRECATED [[deprecated]]
#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]
#define C10_ALWAYS_INLINE inline __attribute__((__always_inline__))
#define C10_NOINLINE __attribute__((__noinline__))
#define C10_RESTRICT __restrict
#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define C10_UNLIKELY_OR_CONST(expr) C10_UNLIKELY(expr)
#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)
#define C10_CONCATENATE_IMPL(a, b) a##b
#define C10_CONCATENATE(a, b) C10_CONCATENATE_IMPL(a, b)
#define C10_ANONYMOUS_VARIABLE(name) C10_CONCATENATE(name, __LINE__)

// Warp width and the launch bounds PyTorch's CUDA kernels use (1024 threads, no minimum).
#define C10_WARP_SIZE 32
#define CUDA_MAX_THREADS_PER_BLOCK 1024
#define CUDA_THREADS_PER_BLOCK_FALLBACK 256
#define C10_MAX_THREADS_PER_BLOCK(val) \
  (((val) <= CUDA_MAX_THREADS_PER_BLOCK) ? (val) : CUDA_THREADS_PER_BLOCK_FALLBACK)
#define C10_MIN_BLOCKS_PER_SM(threads_per_block, blocks_per_sm)                           \
  ((((threads_per_block) * (blocks_per_sm) <= CUDA_MAX_THREADS_PER_BLOCK)                 \
        ? (blocks_per_sm)                                                                  \
        : ((CUDA_MAX_THREADS_PER_BLOCK + (threads_per_block) - 1) / (threads_per_block))))
#define C10_LAUNCH_BOUNDS_0 __launch_bounds__(256, 4)
#define C10_LAUNCH_BOUNDS_1(max_threads_per_block) \
  __launch_bounds__((C10_MAX_THREADS_PER_BLOCK((max_threads_per_block))))
#define C10_LAUNCH_BOUNDS_2(max_threads_per_block, min_blocks_per_sm)   \
  __launch_bounds__((C10_MAX_THREADS_PER_BLOCK((max_threads_per_block))), \
                    (C10_MIN_BLOCKS_PER_SM((max_threads_per_block), (min_blocks_per_sm))))

// Device-side assertion, as PyTorch's kernels write it.
#define CUDA_KERNEL_ASSERT(cond) assert(cond)
#define CUDA_KERNEL_ASSERT_MSG(cond, msg) assert(cond)
#define SYCL_KERNEL_ASSERT(cond) assert(cond)

namespace c10 {
namespace cuda {}
}  // namespace c10
namespace at {
using namespace c10;  // NOLINT: PyTorch exposes every c10 name in at:: this way
namespace cuda {
using namespace c10::cuda;  // NOLINT
}  // namespace cuda
}  // namespace at
namespace caffe2 {
using namespace c10;  // NOLINT
}  // namespace caffe2
