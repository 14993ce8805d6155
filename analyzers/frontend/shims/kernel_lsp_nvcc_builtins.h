/* kernel-lsp shim, force-included after clang's CUDA wrapper. nvcc 12.8 and later have built-in
   atomic functions (__nv_atomic_load_n, __nv_atomic_fetch_add, ...), and headers pick them by
   nvcc's version: CUTLASS's subbyte_reference.h calls __nv_atomic_load_n(ptr,
   __NV_ATOMIC_RELAXED) when __CUDACC_VER_MAJOR__/__CUDACC_VER_MINOR__ say 12.8 or later, which
   kernel-lsp defines as nvcc does. clang 19 has none of these builtins, and the enums of orders
   and scopes are in the part of CUDA 13's crt/device_functions.h that clang's wrapper skips (it
   defines __DEVICE_FUNCTIONS_H__ first); the enumerators below are in that header's order (its
   enums are unnamed; these have names so that template arguments deduced from them have linkage).
   The arguments after the pointer are left open: a shim only has to let calls parse, and no
   rule looks inside an atomic. Never used to compile anything. */
#pragma once
enum kernel_lsp_nv_atomic_order {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum kernel_lsp_nv_thread_scope {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
template <class T, class... Rest> __device__ T __nv_atomic_load_n(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_load(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_store_n(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_store(T* ptr, Rest...);
template <class T, class... Rest> __device__ T __nv_atomic_exchange_n(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_exchange(T* ptr, Rest...);
template <class T, class... Rest> __device__ bool __nv_atomic_compare_exchange_n(T* ptr, Rest...);
template <class T, class... Rest> __device__ bool __nv_atomic_compare_exchange(T* ptr, Rest...);
template <class T, class... Rest> __device__ T __nv_atomic_fetch_add(T* ptr, Rest...);
template <class T, class... Rest> __device__ T __nv_atomic_fetch_sub(T* ptr, Rest...);
template <class T, class... Rest> __device__ T __nv_atomic_fetch_and(T* ptr, Rest...);
template <class T, class... Rest> __device__ T __nv_atomic_fetch_or(T* ptr, Rest...);
template <class T, class... Rest> __device__ T __nv_atomic_fetch_xor(T* ptr, Rest...);
template <class T, class... Rest> __device__ T __nv_atomic_fetch_min(T* ptr, Rest...);
template <class T, class... Rest> __device__ T __nv_atomic_fetch_max(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_add(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_sub(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_and(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_or(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_xor(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_min(T* ptr, Rest...);
template <class T, class... Rest> __device__ void __nv_atomic_max(T* ptr, Rest...);
template <class... Args> __device__ void __nv_atomic_thread_fence(Args...);

/* The cache-hint loads and stores. CUDA declares them in sm_32_intrinsics.h (and, for half and
   bfloat16, in cuda_fp16.hpp / cuda_bf16.hpp), but clang's wrapper skips sm_32_intrinsics.h and
   declares only __ldg: without these, every statement that uses __ldcs or __stcs (llm.c's and
   many PyTorch kernels' streaming loads) is an undeclared call to clang and its access is lost.
   Generic over the element type; CUDA's own non-template overloads, where a header declares
   them, win overload resolution. */
template <class T> __device__ T __ldcg(const T* ptr);
template <class T> __device__ T __ldca(const T* ptr);
template <class T> __device__ T __ldcs(const T* ptr);
template <class T> __device__ T __ldlu(const T* ptr);
template <class T> __device__ T __ldcv(const T* ptr);
template <class T, class V> __device__ void __stcg(T* ptr, V value);
template <class T, class V> __device__ void __stcs(T* ptr, V value);
template <class T, class V> __device__ void __stwb(T* ptr, V value);
template <class T, class V> __device__ void __stwt(T* ptr, V value);
