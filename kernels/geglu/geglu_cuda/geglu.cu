// GEGLU: gelu(gate) * up over the two halves of the last dimension.
//
// Memory-bound: per output element it reads two and writes one. The vector
// kernel gives each thread two 16-byte output vectors (four 16-byte loads in
// flight) and streams inputs with evict-first loads. It takes uint4 pointers
// and strides in 16-byte units: the host checks alignment first and uses the
// one-element kernel otherwise.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>

#include "geglu.h"
#include "vector_pack.cuh"

namespace {

using kl::Pack;

__device__ __forceinline__ int64_t row_offset(unsigned row, unsigned inner, int64_t so,
                                              int64_t si) {
  const unsigned o = row / inner;
  const unsigned i = row - o * inner;
  return static_cast<int64_t>(o) * so + static_cast<int64_t>(i) * si;
}

// gelu_tanh(x) = 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)),
// u = sqrt(2/pi) (x + 0.044715 x^3). PRECISE: accurate exp and division
// (fp32 data); otherwise the hardware approximations, far below bf16/fp16
// resolution. Both give the right limits (x for large x, -0 for very negative x).
template <bool PRECISE>
__device__ __forceinline__ float gelu_tanh(float x) {
  constexpr float kTwoSqrt2OverPi = 1.5957691216057308f;  // 2 * sqrt(2/pi)
  const float x3 = x * x * x;
  const float t = -kTwoSqrt2OverPi * fmaf(0.044715f, x3, x);
  if (PRECISE) return x / (1.0f + expf(t));
  return __fdividef(x, 1.0f + __expf(t));
}

__device__ __forceinline__ float gelu_erf(float x) {
  return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
}

template <bool TANH, bool PRECISE>
__device__ __forceinline__ float geglu1(float g, float u) {
  return (TANH ? gelu_tanh<PRECISE>(g) : gelu_erf(g)) * u;
}

constexpr int kThreads = 256;

// Loads of data read once: 0 plain ld.global (default: coherent, so in-place
// use is safe, and measured as fast as the alternatives on an H200), 1
// read-only path (ld.global.nc), 2 evict-first (ld.global.cs, measured 3-4 %
// slower at large sizes). A kernel argument, uniform per launch.
__device__ __forceinline__ uint4 load_stream(const uint4* p, int policy) {
  if (policy == 1) return __ldg(p);
  if (policy == 2) return __ldcs(p);
  return *p;
}

// Benchmark-only variant code -> load policy: tens digit 1 = .nc, 3 = .cs,
// anything else plain.
inline int policy_of(int variant) {
  const int t = variant / 10;
  return t == 1 ? 1 : (t == 3 ? 2 : 0);
}

// Benchmark-only overrides: vectors per thread (0: automatic = 1) and load policy.
int g_variant = 0;
int g_policy = 0;

// I: index type of the flat (row, vector) slot; 32-bit when it fits, which
// keeps the per-slot division cheap.
template <typename T, bool TANH, typename I, int kUnroll>
__global__ void __launch_bounds__(kThreads)
    geglu_vec_kernel(uint4* out, const uint4* in, I rows, int inner, I nvf, int64_t out_so,
                     int64_t out_si, int64_t in_so, int64_t in_si, int swapped, int policy) {
  using P = Pack<T>;
  constexpr int N = P::N;
  constexpr bool PRECISE = sizeof(T) == 4;
  const I total = rows * nvf;
  const I base = static_cast<I>(blockIdx.x) * (kThreads * kUnroll) + threadIdx.x;
  const int64_t gate_off = swapped ? nvf : 0;
  const int64_t up_off = swapped ? 0 : nvf;
  uint4 g[kUnroll], u[kUnroll];
  int64_t oo[kUnroll];
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) {
    const I slot = base + k * kThreads;
    oo[k] = -1;
    if (slot < total) {
      const I row = slot / nvf;
      const int64_t j = static_cast<int64_t>(slot - row * nvf);
      const unsigned r = static_cast<unsigned>(row);
      const int64_t oi = row_offset(r, inner, in_so, in_si) + j;
      g[k] = load_stream(in + oi + gate_off, policy);
      u[k] = load_stream(in + oi + up_off, policy);
      oo[k] = row_offset(r, inner, out_so, out_si) + j;
    }
  }
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) {
    if (oo[k] < 0) continue;
    float gf[N], uf[N], y[N];
    P::unpack(g[k], gf);
    P::unpack(u[k], uf);
#pragma unroll
    for (int i = 0; i < N; ++i) y[i] = geglu1<TANH, PRECISE>(gf[i], uf[i]);
    out[oo[k]] = P::pack(y);
  }
}

template <typename T, bool TANH, typename I>
__global__ void __launch_bounds__(kThreads)
    geglu_scalar_kernel(T* out, const T* in, I rows, int inner, I f, int64_t out_so,
                        int64_t out_si, int64_t in_so, int64_t in_si, int swapped) {
  using P = Pack<T>;
  constexpr bool PRECISE = sizeof(T) == 4;
  const I slot = static_cast<I>(blockIdx.x) * kThreads + threadIdx.x;
  if (slot >= rows * f) return;
  const I row = slot / f;
  const int64_t j = static_cast<int64_t>(slot - row * f);
  const unsigned r = static_cast<unsigned>(row);
  const int64_t oi = row_offset(r, inner, in_so, in_si) + j;
  const float a = P::to_f(in[oi]);
  const float b = P::to_f(in[oi + f]);
  const float y = swapped ? geglu1<TANH, PRECISE>(b, a) : geglu1<TANH, PRECISE>(a, b);
  out[row_offset(r, inner, out_so, out_si) + j] = P::from_f(y);
}

bool aligned(const void* ptr) { return reinterpret_cast<uintptr_t>(ptr) % 16 == 0; }

template <typename T, bool TANH, typename I, int kUnroll>
int launch_vec(const KlGegluParams& p, cudaStream_t stream) {
  constexpr int N = Pack<T>::N;
  const int64_t nvf = p.f / N;
  const int64_t blocks = (p.rows * nvf + kThreads * kUnroll - 1) / (kThreads * kUnroll);
  if (blocks > INT32_MAX) return KL_GEGLU_ESIZE;
  geglu_vec_kernel<T, TANH, I, kUnroll><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<uint4*>(p.out), static_cast<const uint4*>(p.in), static_cast<I>(p.rows),
      static_cast<int>(p.inner), static_cast<I>(nvf), p.out_so / N, p.out_si / N, p.in_so / N,
      p.in_si / N, p.swapped, g_policy);
  return static_cast<int>(cudaGetLastError());
}

template <typename T, bool TANH, typename I>
int launch(const KlGegluParams& p, cudaStream_t stream) {
  constexpr int N = Pack<T>::N;
  const bool vec = p.f % N == 0 && aligned(p.out) && aligned(p.in) && p.out_so % N == 0 &&
                   p.out_si % N == 0 && p.in_so % N == 0 && p.in_si % N == 0;
  if (vec) {
    if (g_variant == 2) return launch_vec<T, TANH, I, 2>(p, stream);
    if (g_variant == 3) return launch_vec<T, TANH, I, 4>(p, stream);
    return launch_vec<T, TANH, I, 1>(p, stream);
  } else {
    const int64_t blocks = (p.rows * p.f + kThreads - 1) / kThreads;
    if (blocks > INT32_MAX) return KL_GEGLU_ESIZE;
    geglu_scalar_kernel<T, TANH, I><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
        static_cast<T*>(p.out), static_cast<const T*>(p.in), static_cast<I>(p.rows),
        static_cast<int>(p.inner), static_cast<I>(p.f), p.out_so, p.out_si, p.in_so, p.in_si, p.swapped);
  }
  return static_cast<int>(cudaGetLastError());
}

template <typename T, typename I>
int typed_index(const KlGegluParams& p, cudaStream_t stream) {
  return p.tanh_approx ? launch<T, true, I>(p, stream) : launch<T, false, I>(p, stream);
}

template <typename T>
int typed(const KlGegluParams& p, cudaStream_t stream) {
  // Slots (plus one block of slack) must fit the 32-bit index.
  const int64_t slots = p.rows * p.f + kThreads * 4;
  return slots < INT32_MAX ? typed_index<T, uint32_t>(p, stream)
                           : typed_index<T, uint64_t>(p, stream);
}

}  // namespace

extern "C" void kl_geglu_set_variant(int variant) {
  g_variant = variant % 10;
  g_policy = policy_of(variant);
}

extern "C" int kl_geglu(const KlGegluParams* p, cudaStream_t stream) {
  if (p == nullptr || p->out == nullptr || p->in == nullptr || p->inner <= 0 || p->rows < 0 ||
      p->f < 0)
    return KL_GEGLU_EARGS;
  if (p->rows == 0 || p->f == 0) return 0;
  if (p->rows > INT32_MAX || p->inner > INT32_MAX) return KL_GEGLU_ESIZE;
  switch (p->dtype) {
    case KL_GEGLU_F32: return typed<float>(*p, stream);
    case KL_GEGLU_F16: return typed<__half>(*p, stream);
    case KL_GEGLU_BF16: return typed<__nv_bfloat16>(*p, stream);
    default: return KL_GEGLU_EDTYPE;
  }
}
