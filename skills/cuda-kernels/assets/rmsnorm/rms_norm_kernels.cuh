// RMSNorm kernels for fp32 / fp16 / bf16 — pure CUDA, no torch headers.
//
// out[r, :] = w * (x[r, :] * rsqrt(mean(x[r, :]^2) + eps))      (w optional)
//
// What makes it fast (see references/memory-access.md of the cuda-kernels skill):
//   * 16-byte loads/stores (8 bf16/fp16 or 4 fp32 per access) whenever the hidden size, the row
//     strides and the pointers allow it; otherwise one element per access (always correct).
//   * The whole row stays in registers (up to 4 vectors per thread): one read, one write.
//   * Narrow rows (q/k norm, hidden 128) use a group of 4..32 lanes per row and many rows per
//     block, instead of one mostly idle block per row.
//   * Reductions: warp shuffle, then one float per warp through shared memory.
//
// Numerics: fp32 accumulation. `round_twice` reproduces transformers/diffusers RMSNorm
// (bf16(w * bf16(x * rstd))); without it the result is rounded once (bf16(w * x * rstd)).
#pragma once

#include <cstdint>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace rms_norm_ref {

template <typename T> struct Num;
template <> struct Num<float> {
  static __device__ __forceinline__ float to_float(float x) { return x; }
  static __device__ __forceinline__ float from_float(float x) { return x; }
};
template <> struct Num<__half> {
  static __device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
  static __device__ __forceinline__ __half from_float(float x) { return __float2half_rn(x); }
};
template <> struct Num<__nv_bfloat16> {
  static __device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
  static __device__ __forceinline__ __nv_bfloat16 from_float(float x) { return __float2bfloat16_rn(x); }
};

// N elements of T moved by one load/store instruction (alignas makes it 16 bytes wide when
// N * sizeof(T) == 16).
template <typename T, int N> struct alignas(sizeof(T) * N) Vec { T v[N]; };

// Sum over aligned groups of kGroup lanes (kGroup a power of two <= 32). All 32 lanes of the
// warp must call it (full mask).
template <int kGroup>
__device__ __forceinline__ float group_sum(float v) {
#pragma unroll
  for (int offset = kGroup / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Sum over the whole block: warp shuffle, then one partial per warp in shared memory.
template <int kThreads>
__device__ __forceinline__ float block_sum(float v) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  constexpr int kWarps = kThreads / 32;
  __shared__ float partial[kWarps];
  __shared__ float total;
  v = group_sum<32>(v);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float t = lane < kWarps ? partial[lane] : 0.0f;
    t = group_sum<32>(t);
    if (lane == 0) total = t;
  }
  __syncthreads();
  return total;
}

template <typename T, int N>
__device__ __forceinline__ void normalize_store(T* out_row, const T* weight, int vec_index,
                                                const Vec<T, N>& x, float rstd, bool round_twice) {
  Vec<T, N> w, y;
  if (weight != nullptr) w = reinterpret_cast<const Vec<T, N>*>(weight)[vec_index];
#pragma unroll
  for (int j = 0; j < N; ++j) {
    float n = Num<T>::to_float(x.v[j]) * rstd;
    if (round_twice) n = Num<T>::to_float(Num<T>::from_float(n));
    const float wj = weight != nullptr ? Num<T>::to_float(w.v[j]) : 1.0f;
    y.v[j] = Num<T>::from_float(n * wj);
  }
  reinterpret_cast<Vec<T, N>*>(out_row)[vec_index] = y;
}

// One block per row; the row lives in registers (kVecPerThread vectors per thread).
template <typename T, int N, int kThreads, int kVecPerThread>
__global__ void __launch_bounds__(kThreads)
rms_norm_block_kernel(T* __restrict__ out, const T* __restrict__ in, const T* __restrict__ weight,
                      int n_vec, int hidden, int64_t in_stride, int64_t out_stride, float eps,
                      bool round_twice) {
  const T* in_row = in + blockIdx.x * in_stride;
  T* out_row = out + blockIdx.x * out_stride;
  const Vec<T, N>* src = reinterpret_cast<const Vec<T, N>*>(in_row);
  Vec<T, N> x[kVecPerThread];
  float sum_sq = 0.0f;
#pragma unroll
  for (int k = 0; k < kVecPerThread; ++k) {
    const int i = threadIdx.x + k * kThreads;
    if (i < n_vec) {
      x[k] = src[i];
#pragma unroll
      for (int j = 0; j < N; ++j) {
        const float f = Num<T>::to_float(x[k].v[j]);
        sum_sq += f * f;
      }
    }
  }
  const float rstd = rsqrtf(block_sum<kThreads>(sum_sq) / hidden + eps);
#pragma unroll
  for (int k = 0; k < kVecPerThread; ++k) {
    const int i = threadIdx.x + k * kThreads;
    if (i < n_vec) normalize_store<T, N>(out_row, weight, i, x[k], rstd, round_twice);
  }
}

// Rows too wide for registers: read twice (the second read mostly hits L2).
template <typename T, int N, int kThreads>
__global__ void __launch_bounds__(kThreads)
rms_norm_wide_kernel(T* __restrict__ out, const T* __restrict__ in, const T* __restrict__ weight,
                     int n_vec, int hidden, int64_t in_stride, int64_t out_stride, float eps,
                     bool round_twice) {
  const T* in_row = in + blockIdx.x * in_stride;
  T* out_row = out + blockIdx.x * out_stride;
  const Vec<T, N>* src = reinterpret_cast<const Vec<T, N>*>(in_row);
  float sum_sq = 0.0f;
  for (int i = threadIdx.x; i < n_vec; i += kThreads) {
    const Vec<T, N> x = src[i];
#pragma unroll
    for (int j = 0; j < N; ++j) {
      const float f = Num<T>::to_float(x.v[j]);
      sum_sq += f * f;
    }
  }
  const float rstd = rsqrtf(block_sum<kThreads>(sum_sq) / hidden + eps);
  for (int i = threadIdx.x; i < n_vec; i += kThreads)
    normalize_store<T, N>(out_row, weight, i, src[i], rstd, round_twice);
}

// Narrow rows: kGroup lanes per row, kRows rows per group, 256 / kGroup groups per block.
// Each lane issues kRows * kVecPerLane independent loads before the first reduction, so that
// enough bytes are in flight even when a row is only 256 bytes (hidden 128 in bf16).
template <typename T, int N, int kGroup, int kVecPerLane, int kRows>
__global__ void __launch_bounds__(256)
rms_norm_group_kernel(T* __restrict__ out, const T* __restrict__ in, const T* __restrict__ weight,
                      int64_t rows, int n_vec, int hidden, int64_t in_stride, int64_t out_stride,
                      float eps, bool round_twice) {
  constexpr int kGroupsPerBlock = 256 / kGroup;
  const int group = threadIdx.x / kGroup, lane = threadIdx.x % kGroup;
  // Row r of this group: adjacent groups take adjacent rows, so a warp reads one contiguous span.
  const int64_t base = int64_t(blockIdx.x) * kGroupsPerBlock * kRows + group;
  Vec<T, N> x[kRows][kVecPerLane];
  float sum_sq[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int64_t row = base + int64_t(r) * kGroupsPerBlock;
    const Vec<T, N>* src = reinterpret_cast<const Vec<T, N>*>(in + row * in_stride);
    sum_sq[r] = 0.0f;
#pragma unroll
    for (int k = 0; k < kVecPerLane; ++k) {
      const int i = lane + k * kGroup;
      if (row < rows && i < n_vec) x[r][k] = src[i];
    }
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
#pragma unroll
    for (int k = 0; k < kVecPerLane; ++k) {
      const int64_t row = base + int64_t(r) * kGroupsPerBlock;
      const int i = lane + k * kGroup;
      if (row < rows && i < n_vec) {
#pragma unroll
        for (int j = 0; j < N; ++j) {
          const float f = Num<T>::to_float(x[r][k].v[j]);
          sum_sq[r] += f * f;
        }
      }
    }
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    // No early return before this point: every lane of the warp joins the shuffles.
    const float rstd = rsqrtf(group_sum<kGroup>(sum_sq[r]) / hidden + eps);
    const int64_t row = base + int64_t(r) * kGroupsPerBlock;
    if (row >= rows) continue;
    T* out_row = out + row * out_stride;
#pragma unroll
    for (int k = 0; k < kVecPerLane; ++k) {
      const int i = lane + k * kGroup;
      if (i < n_vec) normalize_store<T, N>(out_row, weight, i, x[r][k], rstd, round_twice);
    }
  }
}

template <typename T, int N, int kGroup, int kVecPerLane, int kRows>
cudaError_t launch_group(T* out, const T* in, const T* w, int64_t rows, int n_vec, int hidden,
                         int64_t in_stride, int64_t out_stride, float eps, bool round_twice,
                         cudaStream_t stream) {
  constexpr int kThreads = 256, kRowsPerBlock = kThreads / kGroup * kRows;
  const int64_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  rms_norm_group_kernel<T, N, kGroup, kVecPerLane, kRows><<<dim3(unsigned(blocks)), kThreads, 0, stream>>>(
      out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice);
  return cudaGetLastError();
}

template <typename T, int N, int kThreads, int kVecPerThread>
cudaError_t launch_block(T* out, const T* in, const T* w, int64_t rows, int n_vec, int hidden,
                         int64_t in_stride, int64_t out_stride, float eps, bool round_twice,
                         cudaStream_t stream) {
  rms_norm_block_kernel<T, N, kThreads, kVecPerThread><<<dim3(unsigned(rows)), kThreads, 0, stream>>>(
      out, in, w, n_vec, hidden, in_stride, out_stride, eps, round_twice);
  return cudaGetLastError();
}

// Picks the configuration from the number of vectors per row.
template <typename T, int N>
cudaError_t launch_with_width(T* out, const T* in, const T* w, int64_t rows, int hidden,
                              int64_t in_stride, int64_t out_stride, float eps, bool round_twice,
                              cudaStream_t stream) {
  const int n_vec = hidden / N;
  if (n_vec <= 4)   return launch_group<T, N, 4, 1, 4>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 8)   return launch_group<T, N, 8, 1, 4>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 16)  return launch_group<T, N, 16, 1, 4>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 32)  return launch_group<T, N, 32, 1, 4>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 64)  return launch_group<T, N, 32, 2, 2>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 128) return launch_group<T, N, 32, 4, 1>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 256) return launch_block<T, N, 128, 2>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 512) return launch_block<T, N, 256, 2>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 1024) return launch_block<T, N, 256, 4>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 2048) return launch_block<T, N, 512, 4>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  if (n_vec <= 4096) return launch_block<T, N, 1024, 4>(out, in, w, rows, n_vec, hidden, in_stride, out_stride, eps, round_twice, stream);
  rms_norm_wide_kernel<T, N, 1024><<<dim3(unsigned(rows)), 1024, 0, stream>>>(
      out, in, w, n_vec, hidden, in_stride, out_stride, eps, round_twice);
  return cudaGetLastError();
}

inline bool aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) % 16) == 0; }

// Host entry point. Row r of `in` starts at in + r * in_stride (elements); the last dimension is
// contiguous. `weight` may be nullptr (no affine). Returns the launch error, if any.
template <typename T>
cudaError_t launch_rms_norm(T* out, const T* in, const T* weight, int64_t rows, int hidden,
                            int64_t in_stride, int64_t out_stride, float eps, bool round_twice,
                            cudaStream_t stream) {
  if (rows == 0 || hidden == 0) return cudaSuccess;
  if (rows > 0x7fffffff || hidden <= 0) return cudaErrorInvalidValue;
  constexpr int kVec = 16 / sizeof(T);  // elements per 16-byte access
  const bool vec_ok = hidden % kVec == 0 && in_stride % kVec == 0 && out_stride % kVec == 0 &&
                      aligned16(in) && aligned16(out) && (weight == nullptr || aligned16(weight));
  if (vec_ok)
    return launch_with_width<T, kVec>(out, in, weight, rows, hidden, in_stride, out_stride, eps, round_twice, stream);
  return launch_with_width<T, 1>(out, in, weight, rows, hidden, in_stride, out_stride, eps, round_twice, stream);
}

}  // namespace rms_norm_ref
