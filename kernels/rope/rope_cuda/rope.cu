// Rotary position embeddings: NeoX rotate-half (Qwen3) on q and k in one
// launch, and LTX-Video's interleaved 3D RoPE over the full hidden width.
//
// Vector kernels move 16 bytes per access and take uint4 pointers; the host
// checks alignment and divisibility before choosing them, and falls back to
// one-element kernels otherwise. This file must not be built with
// --use_fast_math: the grid-coordinate path needs accurate sincosf for angles
// up to ~1.6e4 rad.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>

#include "rope.h"
#include "vector_pack.cuh"

namespace {

using kl::Pack;

__device__ __forceinline__ int64_t row_offset(unsigned row, unsigned inner, int64_t so,
                                              int64_t si) {
  const unsigned o = row / inner;
  const unsigned i = row - o * inner;
  return static_cast<int64_t>(o) * so + static_cast<int64_t>(i) * si;
}

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

__device__ __forceinline__ int64_t load_position(const void* pos, int is_int32, int64_t t) {
  return is_int32 ? static_cast<int64_t>(__ldg(static_cast<const int*>(pos) + t))
                  : static_cast<int64_t>(__ldg(static_cast<const long long*>(pos) + t));
}

// ------------------------------------------------------------------ NeoX
// Where a token's cos/sin row lives. Cache mode: row positions[t] of the
// cache (`sin` points rot_dim/2 entries after `cos`). Gathered mode
// (transformers' cos/sin, already indexed by position): token t = b * seq + s
// owns row b * batch + s * row of each, and no position is loaded, so none of
// a thread's loads waits for another. Strides in units of what the kernel
// reads (16-byte vectors or elements).
struct NeoxTable {
  const void* cos;
  const void* sin;
  int64_t row;    // between rows (cache: per position; gathered: per token)
  int64_t batch;  // gathered: between batches (0: one table for all)
  int64_t seq;    // gathered: tokens per batch; 0: one row per token
};

template <bool GATHERED>
__device__ __forceinline__ int64_t table_row(const NeoxTable& tb, const void* pos, int pos_int32,
                                             int64_t t) {
  if (!GATHERED) return load_position(pos, pos_int32, t) * tb.row;
  if (tb.seq == 0) return t * tb.row;
  const int64_t b = t / tb.seq;
  return b * tb.batch + (t - b * tb.seq) * tb.row;
}

// Thread = (token, group of HPT heads, vector j of the first half). It loads
// its cos/sin vector once and rotates the same columns of HPT heads, q heads
// first, then k heads. Table strides in 16-byte vectors.
template <typename T, typename C, int HPT, typename I, bool GATHERED>
__global__ void __launch_bounds__(256)
    rope_neox_vec_kernel(uint4* q, uint4* k, const void* __restrict__ pos, int pos_int32,
                         NeoxTable tb, int64_t tokens, int hq, int hk, int nvh, int groups,
                         int64_t q_st, int64_t q_sh, int64_t k_st, int64_t k_sh, int policy) {
  constexpr int N = Pack<T>::N;
  constexpr int CN = Pack<C>::N;
  constexpr int CV = N / CN;  // uint4 per N cache entries
  static_assert(CV >= 1 && CV * CN == N, "cache type must be at least as wide as the data type");
  const I id = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x;
  const I rest = id / static_cast<I>(nvh);
  const int j = static_cast<int>(id - rest * static_cast<I>(nvh));
  const I tq = rest / static_cast<I>(groups);
  const int g = static_cast<int>(rest - tq * static_cast<I>(groups));
  const int64_t t = static_cast<int64_t>(tq);
  if (t >= tokens) return;
  const int h_total = hq + hk;

  // Data loads first (independent of the position).
  uint4 a[HPT], b[HPT];
  int64_t base[HPT];
#pragma unroll
  for (int i = 0; i < HPT; ++i) {
    const int h = g * HPT + i;
    base[i] = -1;
    if (h < h_total) {
      base[i] = h < hq ? t * q_st + h * q_sh : t * k_st + (h - hq) * k_sh;
      const uint4* src = h < hq ? q : k;
      a[i] = load_stream(src + base[i] + j, policy);
      b[i] = load_stream(src + base[i] + nvh + j, policy);
    }
  }
  const int64_t row = table_row<GATHERED>(tb, pos, pos_int32, t) + j * CV;
  const uint4* cosv = static_cast<const uint4*>(tb.cos);
  const uint4* sinv = static_cast<const uint4*>(tb.sin);
  float c[N], s[N];
#pragma unroll
  for (int u = 0; u < CV; ++u) {
    Pack<C>::unpack(__ldg(cosv + row + u), c + u * CN);
    Pack<C>::unpack(__ldg(sinv + row + u), s + u * CN);
  }
#pragma unroll
  for (int i = 0; i < HPT; ++i) {
    if (base[i] < 0) continue;
    const int h = g * HPT + i;
    uint4* dst = h < hq ? q : k;
    float x1[N], x2[N], o1[N], o2[N];
    Pack<T>::unpack(a[i], x1);
    Pack<T>::unpack(b[i], x2);
#pragma unroll
    for (int e = 0; e < N; ++e) {
      o1[e] = x1[e] * c[e] - x2[e] * s[e];
      o2[e] = x2[e] * c[e] + x1[e] * s[e];
    }
    dst[base[i] + j] = Pack<T>::pack(o1);
    dst[base[i] + nvh + j] = Pack<T>::pack(o2);
  }
}

// One thread per (token, head, pair); any alignment. Table strides in
// elements of C.
template <typename T, typename C, typename I, bool GATHERED>
__global__ void __launch_bounds__(256)
    rope_neox_scalar_kernel(T* q, T* k, const void* __restrict__ pos, int pos_int32,
                            NeoxTable tb, int64_t tokens, int hq, int hk, int half, int64_t q_st,
                            int64_t q_sh, int64_t k_st, int64_t k_sh) {
  const I id = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x;
  const I rest = id / static_cast<I>(half);
  const int i = static_cast<int>(id - rest * static_cast<I>(half));
  const I tq = rest / static_cast<I>(hq + hk);
  const int h = static_cast<int>(rest - tq * static_cast<I>(hq + hk));
  const int64_t t = static_cast<int64_t>(tq);
  if (t >= tokens) return;
  T* x = h < hq ? q + t * q_st + h * q_sh : k + t * k_st + (h - hq) * k_sh;
  const int64_t row = table_row<GATHERED>(tb, pos, pos_int32, t) + i;
  const float c = Pack<C>::to_f(static_cast<const C*>(tb.cos)[row]);
  const float s = Pack<C>::to_f(static_cast<const C*>(tb.sin)[row]);
  const float x1 = Pack<T>::to_f(x[i]);
  const float x2 = Pack<T>::to_f(x[half + i]);
  x[i] = Pack<T>::from_f(x1 * c - x2 * s);
  x[half + i] = Pack<T>::from_f(x2 * c + x1 * s);
}

// Benchmark-only overrides: heads per thread of the NeoX kernel (0:
// automatic) and load policy.
int g_variant = 0;
int g_policy = 0;

bool aligned(const void* ptr, int bytes) {
  return ptr == nullptr || reinterpret_cast<uintptr_t>(ptr) % bytes == 0;
}

// The table of p in units of `unit` bytes (16 for the vector kernel, sizeof(C)
// for the scalar one).
template <typename C>
NeoxTable neox_table(const KlRopeNeoxParams& p, int64_t unit) {
  const int64_t es = static_cast<int64_t>(sizeof(C));
  NeoxTable tb{};
  if (p.positions != nullptr) {
    tb.cos = p.cache;
    tb.sin = static_cast<const char*>(p.cache) + (p.rot_dim / 2) * es;
    tb.row = p.cache_stride * es / unit;
  } else {
    tb.cos = p.cos;
    tb.sin = p.sin;
    tb.row = p.cs_token * es / unit;
    tb.batch = p.cs_batch * es / unit;
    tb.seq = p.seq >= p.tokens ? 0 : p.seq;
  }
  return tb;
}

template <typename T, typename C, int HPT, bool GATHERED>
int launch_neox_vec(const KlRopeNeoxParams& p, cudaStream_t stream) {
  constexpr int N = Pack<T>::N;
  const int half = p.rot_dim / 2;
  const int nvh = half / N;
  const int h_total = p.hq + p.hk;
  const int groups = (h_total + HPT - 1) / HPT;
  const int64_t threads = p.tokens * groups * nvh;
  const int64_t blocks = (threads + 255) / 256;
  if (blocks > INT32_MAX) return KL_ROPE_ESIZE;
  const NeoxTable tb = neox_table<C>(p, 16);
  if (blocks * 256 < INT32_MAX)
    rope_neox_vec_kernel<T, C, HPT, uint32_t, GATHERED>
        <<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
            static_cast<uint4*>(p.q), static_cast<uint4*>(p.k), p.positions, p.positions_int32,
            tb, p.tokens, p.hq, p.hk, nvh, groups, p.q_st / N, p.q_sh / N, p.k_st / N,
            p.k_sh / N, g_policy);
  else
    rope_neox_vec_kernel<T, C, HPT, uint64_t, GATHERED>
        <<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
            static_cast<uint4*>(p.q), static_cast<uint4*>(p.k), p.positions, p.positions_int32,
            tb, p.tokens, p.hq, p.hk, nvh, groups, p.q_st / N, p.q_sh / N, p.k_st / N,
            p.k_sh / N, g_policy);
  return static_cast<int>(cudaGetLastError());
}

template <typename T, typename C, bool GATHERED>
int neox_typed(const KlRopeNeoxParams& p, cudaStream_t stream) {
  constexpr int N = Pack<T>::N;
  const int64_t es = static_cast<int64_t>(sizeof(C));
  const int half = p.rot_dim / 2;
  const bool k_ok = p.k == nullptr || (aligned(p.k, 16) && p.k_st % N == 0 && p.k_sh % N == 0);
  const bool table_ok =
      GATHERED ? aligned(p.cos, 16) && aligned(p.sin, 16) && (p.cs_token * es) % 16 == 0 &&
                     (p.cs_batch * es) % 16 == 0
               : aligned(p.cache, 16) && (p.cache_stride * es) % 16 == 0 && (half * es) % 16 == 0;
  const bool vec = sizeof(C) >= sizeof(T) && half % N == 0 && aligned(p.q, 16) && k_ok &&
                   p.q_st % N == 0 && p.q_sh % N == 0 && table_ok;
  if (vec) {
    // One head per thread measured fastest at every token count on an H200
    // (fewer registers, more threads in flight); 2 and 4 stay as variants.
    if (g_variant == 2) return launch_neox_vec<T, C, 2, GATHERED>(p, stream);
    if (g_variant == 3) return launch_neox_vec<T, C, 4, GATHERED>(p, stream);
    return launch_neox_vec<T, C, 1, GATHERED>(p, stream);
  }
  const int64_t threads = p.tokens * (p.hq + p.hk) * static_cast<int64_t>(half);
  const int64_t blocks = (threads + 255) / 256;
  if (blocks > INT32_MAX) return KL_ROPE_ESIZE;
  const NeoxTable tb = neox_table<C>(p, es);
  if (blocks * 256 < INT32_MAX)
    rope_neox_scalar_kernel<T, C, uint32_t, GATHERED>
        <<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
            static_cast<T*>(p.q), static_cast<T*>(p.k), p.positions, p.positions_int32, tb,
            p.tokens, p.hq, p.hk, half, p.q_st, p.q_sh, p.k_st, p.k_sh);
  else
    rope_neox_scalar_kernel<T, C, uint64_t, GATHERED>
        <<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
            static_cast<T*>(p.q), static_cast<T*>(p.k), p.positions, p.positions_int32, tb,
            p.tokens, p.hq, p.hk, half, p.q_st, p.q_sh, p.k_st, p.k_sh);
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int neox_cache(const KlRopeNeoxParams& p, cudaStream_t stream) {
  const bool gathered = p.positions == nullptr;
  if (p.cache_dtype == KL_ROPE_F32)
    return gathered ? neox_typed<T, float, true>(p, stream) : neox_typed<T, float, false>(p, stream);
  if (p.cache_dtype != p.dtype) return KL_ROPE_EDTYPE;
  return gathered ? neox_typed<T, T, true>(p, stream) : neox_typed<T, T, false>(p, stream);
}

// ------------------------------------------------------------------ interleaved
struct InterArgs {
  int64_t rows, inner, dim;
  int64_t oq_so, oq_si, q_so, q_si, ok_so, ok_si, k_so, k_si;
  int64_t cs_so, cs_si;
  int64_t g_so, g_si, g_sc;
  int nfreq, pad;
};

// cos/sin of the N channels of vector j (columns j*N ...). In MODE 0 the
// row strides of cos/sin are in float4 units (host-checked).
template <int N, int MODE>
__device__ __forceinline__ void interleaved_angles(const InterArgs& a, unsigned row, int64_t j,
                                                   const float4* __restrict__ cosv,
                                                   const float4* __restrict__ sinv,
                                                   const float* __restrict__ grid,
                                                   const float* __restrict__ freqs, float* c,
                                                   float* s) {
  if (MODE == 0) {
    constexpr int F4 = N / 4;
    const int64_t o = row_offset(row, a.inner, a.cs_so, a.cs_si) + j * F4;
    // Each lane reads its F4 adjacent float4s in this unrolled loop: every instruction alone
    // spans twice its bytes (what the rule measures), but the two together use each sector
    // they fetch, and the kernel runs at the bandwidth of a copy (kernels/README.md).
#pragma unroll
    for (int u = 0; u < F4; ++u) {
      const float4 x = __ldcs(cosv + o + u);  // kernel-lsp: ignore[uncoalesced-access]
      const float4 y = __ldcs(sinv + o + u);  // kernel-lsp: ignore[uncoalesced-access]
      c[4 * u] = x.x; c[4 * u + 1] = x.y; c[4 * u + 2] = x.z; c[4 * u + 3] = x.w;
      s[4 * u] = y.x; s[4 * u + 1] = y.y; s[4 * u + 2] = y.z; s[4 * u + 3] = y.w;
    }
  } else {
    const int64_t go = row_offset(row, a.inner, a.g_so, a.g_si);
    const float g0 = 2.0f * __ldg(grid + go) - 1.0f;
    const float g1 = 2.0f * __ldg(grid + go + a.g_sc) - 1.0f;
    const float g2 = 2.0f * __ldg(grid + go + 2 * a.g_sc) - 1.0f;
#pragma unroll
    for (int m = 0; m < N / 2; ++m) {
      const int ch = static_cast<int>(j * N) + 2 * m;
      float cv = 1.0f, sv = 0.0f;
      if (ch >= a.pad) {
        const int pi = (ch - a.pad) >> 1;
        const int f = pi / 3;
        const int ax = pi - 3 * f;
        const float gv = ax == 0 ? g0 : (ax == 1 ? g1 : g2);
        // freqs is a table of a few dozen floats, read from L1 by every row.
        const float ang = __fmul_rn(__ldg(freqs + f), gv);  // kernel-lsp: ignore[uncoalesced-access]
        sincosf(ang, &sv, &cv);
      }
      c[2 * m] = cv; c[2 * m + 1] = cv;
      s[2 * m] = sv; s[2 * m + 1] = sv;
    }
  }
}

// Thread = (row, 16-byte vector j). Strides in `a` are in vector units.
template <typename T, int MODE, bool HAS_K>
__global__ void __launch_bounds__(256)
    rope_inter_vec_kernel(uint4* out_q, const uint4* q, uint4* out_k, const uint4* k,
                          const float4* __restrict__ cosv, const float4* __restrict__ sinv,
                          const float* __restrict__ grid, const float* __restrict__ freqs,
                          InterArgs a) {
  constexpr int N = Pack<T>::N;
  const unsigned nv = static_cast<unsigned>(a.dim / N);
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned row = id / nv;
  const int64_t j = id - row * nv;
  if (row >= a.rows) return;
  const unsigned r = static_cast<unsigned>(row);
  const uint4 xq = __ldcs(q + row_offset(r, a.inner, a.q_so, a.q_si) + j);
  uint4 xk = make_uint4(0u, 0u, 0u, 0u);
  if (HAS_K) xk = __ldcs(k + row_offset(r, a.inner, a.k_so, a.k_si) + j);
  float c[N], s[N];
  interleaved_angles<N, MODE>(a, r, j, cosv, sinv, grid, freqs, c, s);
  float x[N], o[N];
  Pack<T>::unpack(xq, x);
#pragma unroll
  for (int m = 0; m < N; m += 2) {
    o[m] = x[m] * c[m] - x[m + 1] * s[m];
    o[m + 1] = x[m + 1] * c[m + 1] + x[m] * s[m + 1];
  }
  out_q[row_offset(r, a.inner, a.oq_so, a.oq_si) + j] = Pack<T>::pack(o);
  if (HAS_K) {
    Pack<T>::unpack(xk, x);
#pragma unroll
    for (int m = 0; m < N; m += 2) {
      o[m] = x[m] * c[m] - x[m + 1] * s[m];
      o[m + 1] = x[m + 1] * c[m + 1] + x[m] * s[m + 1];
    }
    out_k[row_offset(r, a.inner, a.ok_so, a.ok_si) + j] = Pack<T>::pack(o);
  }
}

// Four consecutive elements moved as one access (8 bytes for 16-bit types,
// 16 for fp32): the given-cos/sin kernel pairs them with one float4 of cos
// and one of sin, so every load of a warp is unit-stride (coalesced).
template <typename T>
struct Quad;

template <>
struct Quad<float> {
  using V = uint4;
  __device__ __forceinline__ static void unpack(const V& u, float* f) { Pack<float>::unpack(u, f); }
  __device__ __forceinline__ static V pack(const float* f) { return Pack<float>::pack(f); }
};

template <typename T>
struct Quad16 {
  using V = uint2;
  __device__ __forceinline__ static void unpack(const V& u, float* f) {
    const uint4 w = make_uint4(u.x, u.y, 0u, 0u);
    float t[8];
    Pack<T>::unpack(w, t);
    f[0] = t[0]; f[1] = t[1]; f[2] = t[2]; f[3] = t[3];
  }
  __device__ __forceinline__ static V pack(const float* f) {
    return make_uint2(Pack<T>::pack2(f[0], f[1]), Pack<T>::pack2(f[2], f[3]));
  }
};

template <>
struct Quad<__nv_bfloat16> : Quad16<__nv_bfloat16> {};
template <>
struct Quad<__half> : Quad16<__half> {};

// Given fp32 cos/sin: thread = (row, 4 consecutive channels). Strides in `a`
// are in units of 4 elements (host-checked).
template <typename T, bool HAS_K>
__global__ void __launch_bounds__(256)
    rope_inter_given_kernel(typename Quad<T>::V* out_q, const typename Quad<T>::V* q,
                            typename Quad<T>::V* out_k, const typename Quad<T>::V* k,
                            const float4* __restrict__ cosv, const float4* __restrict__ sinv,
                            InterArgs a) {
  using Q = Quad<T>;
  const unsigned nq = static_cast<unsigned>(a.dim / 4);
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned row = id / nq;
  const int64_t j = id - row * nq;
  if (row >= a.rows) return;
  const typename Q::V xq = q[row_offset(row, a.inner, a.q_so, a.q_si) + j];
  typename Q::V xk{};
  if (HAS_K) xk = k[row_offset(row, a.inner, a.k_so, a.k_si) + j];
  const int64_t co = row_offset(row, a.inner, a.cs_so, a.cs_si) + j;
  const float4 c = cosv[co];
  const float4 s = sinv[co];
  float x[4], o[4];
  Q::unpack(xq, x);
  o[0] = x[0] * c.x - x[1] * s.x;
  o[1] = x[1] * c.y + x[0] * s.y;
  o[2] = x[2] * c.z - x[3] * s.z;
  o[3] = x[3] * c.w + x[2] * s.w;
  out_q[row_offset(row, a.inner, a.oq_so, a.oq_si) + j] = Q::pack(o);
  if (HAS_K) {
    Q::unpack(xk, x);
    o[0] = x[0] * c.x - x[1] * s.x;
    o[1] = x[1] * c.y + x[0] * s.y;
    o[2] = x[2] * c.z - x[3] * s.z;
    o[3] = x[3] * c.w + x[2] * s.w;
    out_k[row_offset(row, a.inner, a.ok_so, a.ok_si) + j] = Q::pack(o);
  }
}

// One thread per (row, pair); any alignment.
template <typename T, int MODE, bool HAS_K>
__global__ void __launch_bounds__(256)
    rope_inter_scalar_kernel(T* out_q, const T* q, T* out_k, const T* k,
                             const float* __restrict__ cosp, const float* __restrict__ sinp,
                             const float* __restrict__ grid, const float* __restrict__ freqs,
                             InterArgs a) {
  const unsigned np = static_cast<unsigned>(a.dim / 2);
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned row = id / np;
  const int64_t m = id - row * np;
  if (row >= a.rows) return;
  const unsigned r = static_cast<unsigned>(row);
  const int64_t col = 2 * m;
  // Scalar fallback for inputs that are not 8-byte aligned or are strided. Each lane handles one
  // (even, odd) pair, so each of the two loads alone has a lane stride of 8 bytes; together they
  // read every byte of the sectors they touch (the second hits L1). The vector path is the fast one.
  float c0, c1, s0, s1;
  if (MODE == 0) {
    const int64_t co = row_offset(r, a.inner, a.cs_so, a.cs_si) + col;
    c0 = cosp[co]; c1 = cosp[co + 1];  // kernel-lsp: ignore[uncoalesced-access]
    s0 = sinp[co]; s1 = sinp[co + 1];  // kernel-lsp: ignore[uncoalesced-access]
  } else {
    c0 = 1.0f; s0 = 0.0f;
    if (col >= a.pad) {
      const int64_t go = row_offset(r, a.inner, a.g_so, a.g_si);
      const int pi = static_cast<int>((col - a.pad) >> 1);
      const int f = pi / 3;
      const int ax = pi - 3 * f;
      const float gv = 2.0f * grid[go + ax * a.g_sc] - 1.0f;
      sincosf(__fmul_rn(freqs[f], gv), &s0, &c0);
    }
    c1 = c0; s1 = s0;
  }
  {
    const int64_t o = row_offset(r, a.inner, a.q_so, a.q_si) + col;
    const float x0 = Pack<T>::to_f(q[o]), x1 = Pack<T>::to_f(q[o + 1]);  // kernel-lsp: ignore[uncoalesced-access]
    const int64_t oo = row_offset(r, a.inner, a.oq_so, a.oq_si) + col;
    out_q[oo] = Pack<T>::from_f(x0 * c0 - x1 * s0);  // kernel-lsp: ignore[uncoalesced-access]
    out_q[oo + 1] = Pack<T>::from_f(x1 * c1 + x0 * s1);  // kernel-lsp: ignore[uncoalesced-access]
  }
  if (HAS_K) {
    const int64_t o = row_offset(r, a.inner, a.k_so, a.k_si) + col;
    const float x0 = Pack<T>::to_f(k[o]), x1 = Pack<T>::to_f(k[o + 1]);  // kernel-lsp: ignore[uncoalesced-access]
    const int64_t oo = row_offset(r, a.inner, a.ok_so, a.ok_si) + col;
    out_k[oo] = Pack<T>::from_f(x0 * c0 - x1 * s0);  // kernel-lsp: ignore[uncoalesced-access]
    out_k[oo + 1] = Pack<T>::from_f(x1 * c1 + x0 * s1);  // kernel-lsp: ignore[uncoalesced-access]
  }
}

template <typename T, bool HAS_K>
int launch_given4(const KlRopeInterleavedParams& p, const InterArgs& a, cudaStream_t stream) {
  using V = typename Quad<T>::V;
  const int64_t threads = p.rows * (p.dim / 4);
  const int64_t blocks = (threads + 255) / 256;
  if (blocks * 256 > UINT32_MAX) return KL_ROPE_ESIZE;
  InterArgs v = a;  // strides in units of 4 elements
  v.oq_so /= 4; v.oq_si /= 4; v.q_so /= 4; v.q_si /= 4;
  v.ok_so /= 4; v.ok_si /= 4; v.k_so /= 4; v.k_si /= 4;
  v.cs_so /= 4; v.cs_si /= 4;
  rope_inter_given_kernel<T, HAS_K><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
      static_cast<V*>(p.out_q), static_cast<const V*>(p.q), static_cast<V*>(p.out_k),
      static_cast<const V*>(p.k), reinterpret_cast<const float4*>(p.cos),
      reinterpret_cast<const float4*>(p.sin), v);
  return static_cast<int>(cudaGetLastError());
}

template <typename T, int MODE, bool HAS_K>
int launch_inter(const KlRopeInterleavedParams& p, const InterArgs& a, bool vec,
                 cudaStream_t stream) {
  if (vec) {
    constexpr int N = Pack<T>::N;
    const int64_t threads = p.rows * (p.dim / N);
    const int64_t blocks = (threads + 255) / 256;
    if (blocks * 256 > UINT32_MAX) return KL_ROPE_ESIZE;
    InterArgs v = a;  // strides in 16-byte units
    v.oq_so /= N; v.oq_si /= N; v.q_so /= N; v.q_si /= N;
    v.ok_so /= N; v.ok_si /= N; v.k_so /= N; v.k_si /= N;
    v.cs_so /= 4; v.cs_si /= 4;
    rope_inter_vec_kernel<T, MODE, HAS_K><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
        static_cast<uint4*>(p.out_q), static_cast<const uint4*>(p.q),
        static_cast<uint4*>(p.out_k), static_cast<const uint4*>(p.k),
        reinterpret_cast<const float4*>(p.cos), reinterpret_cast<const float4*>(p.sin), p.grid,
        p.freqs, v);
  } else {
    const int64_t threads = p.rows * (p.dim / 2);
    const int64_t blocks = (threads + 255) / 256;
    if (blocks * 256 > UINT32_MAX) return KL_ROPE_ESIZE;
    rope_inter_scalar_kernel<T, MODE, HAS_K><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
        static_cast<T*>(p.out_q), static_cast<const T*>(p.q), static_cast<T*>(p.out_k),
        static_cast<const T*>(p.k), p.cos, p.sin, p.grid, p.freqs, a);
  }
  return static_cast<int>(cudaGetLastError());
}

template <typename T>
int inter_typed(const KlRopeInterleavedParams& p, cudaStream_t stream) {
  constexpr int N = Pack<T>::N;
  InterArgs a{};
  a.rows = p.rows; a.inner = p.inner; a.dim = p.dim;
  a.oq_so = p.oq_so; a.oq_si = p.oq_si; a.q_so = p.q_so; a.q_si = p.q_si;
  a.ok_so = p.ok_so; a.ok_si = p.ok_si; a.k_so = p.k_so; a.k_si = p.k_si;
  a.cs_so = p.cs_so; a.cs_si = p.cs_si;
  a.g_so = p.g_so; a.g_si = p.g_si; a.g_sc = p.g_sc;
  a.nfreq = p.nfreq;
  a.pad = static_cast<int>(p.dim - 6 * static_cast<int64_t>(p.nfreq));
  const bool has_k = p.k != nullptr;
  bool vec = p.dim % N == 0 && aligned(p.out_q, 16) && aligned(p.q, 16) &&
             p.oq_so % N == 0 && p.oq_si % N == 0 && p.q_so % N == 0 && p.q_si % N == 0;
  if (has_k)
    vec = vec && aligned(p.out_k, 16) && aligned(p.k, 16) && p.ok_so % N == 0 &&
          p.ok_si % N == 0 && p.k_so % N == 0 && p.k_si % N == 0;
  if (p.mode == 0) {
    // Given cos/sin: 4 channels per thread (coalesced 16-byte cos/sin loads).
    const int qb = 4 * static_cast<int>(sizeof(T));
    bool v4 = p.dim % 4 == 0 && aligned(p.out_q, qb) && aligned(p.q, qb) && p.oq_so % 4 == 0 &&
              p.oq_si % 4 == 0 && p.q_so % 4 == 0 && p.q_si % 4 == 0 && aligned(p.cos, 16) &&
              aligned(p.sin, 16) && p.cs_so % 4 == 0 && p.cs_si % 4 == 0;
    if (has_k)
      v4 = v4 && aligned(p.out_k, qb) && aligned(p.k, qb) && p.ok_so % 4 == 0 &&
           p.ok_si % 4 == 0 && p.k_so % 4 == 0 && p.k_si % 4 == 0;
    if (v4) return has_k ? launch_given4<T, true>(p, a, stream) : launch_given4<T, false>(p, a, stream);
    vec = false;
  }
  if (p.mode == 0) {
    return has_k ? launch_inter<T, 0, true>(p, a, vec, stream)
                 : launch_inter<T, 0, false>(p, a, vec, stream);
  }
  return has_k ? launch_inter<T, 1, true>(p, a, vec, stream)
               : launch_inter<T, 1, false>(p, a, vec, stream);
}

}  // namespace

extern "C" void kl_rope_set_variant(int variant) {
  g_variant = variant % 10;
  g_policy = policy_of(variant);
}

extern "C" int kl_rope_neox(const KlRopeNeoxParams* p, cudaStream_t stream) {
  if (p == nullptr || p->q == nullptr) return KL_ROPE_EARGS;
  if (p->positions != nullptr ? p->cache == nullptr : (p->cos == nullptr || p->sin == nullptr))
    return KL_ROPE_EARGS;
  if (p->positions == nullptr && (p->seq < 0 || p->cs_token < 0 || p->cs_batch < 0))
    return KL_ROPE_EARGS;
  if (p->rot_dim <= 0 || p->rot_dim % 2 || p->rot_dim > p->head_dim || p->hq < 0 || p->hk < 0)
    return KL_ROPE_EARGS;
  if (p->k == nullptr && p->hk != 0) return KL_ROPE_EARGS;
  if (p->tokens == 0 || p->hq + p->hk == 0) return 0;
  switch (p->dtype) {
    case KL_ROPE_F32: return neox_cache<float>(*p, stream);
    case KL_ROPE_F16: return neox_cache<__half>(*p, stream);
    case KL_ROPE_BF16: return neox_cache<__nv_bfloat16>(*p, stream);
    default: return KL_ROPE_EDTYPE;
  }
}

extern "C" int kl_rope_interleaved(const KlRopeInterleavedParams* p, cudaStream_t stream) {
  if (p == nullptr || p->out_q == nullptr || p->q == nullptr) return KL_ROPE_EARGS;
  if ((p->k == nullptr) != (p->out_k == nullptr)) return KL_ROPE_EARGS;
  if (p->dim % 2 != 0 || p->inner <= 0) return KL_ROPE_EARGS;
  if (p->mode == 0 && (p->cos == nullptr || p->sin == nullptr)) return KL_ROPE_EARGS;
  if (p->mode == 1 && (p->grid == nullptr || p->freqs == nullptr || p->nfreq != p->dim / 6))
    return KL_ROPE_EARGS;
  if (p->mode != 0 && p->mode != 1) return KL_ROPE_EARGS;
  if (p->rows == 0 || p->dim == 0) return 0;
  if (p->rows > INT32_MAX || p->inner > INT32_MAX) return KL_ROPE_ESIZE;
  switch (p->dtype) {
    case KL_ROPE_F32: return inter_typed<float>(*p, stream);
    case KL_ROPE_F16: return inter_typed<__half>(*p, stream);
    case KL_ROPE_BF16: return inter_typed<__nv_bfloat16>(*p, stream);
    default: return KL_ROPE_EDTYPE;
  }
}
