// Plain C interface of the rotary-embedding kernels (no torch headers).
//
// 1. NeoX / rotate-half RoPE (Qwen3, Llama) on q [T, Hq, D] and k [T, Hk, D]
//    in one launch, in place. Row p of cos_sin_cache holds rot_dim/2 cosines
//    followed by rot_dim/2 sines; token t uses row positions[t]. Pair (i, i+h)
//    with h = rot_dim/2 becomes (x_i c - x_{i+h} s, x_{i+h} c + x_i s); dims
//    from rot_dim to D are left as they are. Math in fp32, one rounding.
//    Positions must lie in [0, cache rows): they are not checked on the device.
//    With positions == NULL the cosines and sines come per token instead, as
//    transformers passes them (cos/sin [B or 1, S, rot_dim] already indexed by
//    position; only the first rot_dim/2 of each row are read, the second half
//    repeats them): token t = b * seq + s reads row b * cs_batch + s * cs_token.
//
// 2. Interleaved RoPE over the full hidden width (LTX-Video): pairs
//    (2m, 2m+1) of x [B, S, D] become
//      (x0 cos[2m] - x1 sin[2m], x1 cos[2m+1] + x0 sin[2m+1])
//    with fp32 cos/sin either given ([B or 1, S, D]) or computed in the kernel
//    from grid coordinates [B, S, 3] (fp32, already divided by the base
//    sizes) and the frequency table freqs[D/6]: the first D % 6 channels are
//    padding (cos 1, sin 0); pair p = (c - pad)/2 uses angle
//    freqs[p / 3] * (2 * grid[p % 3] - 1), evaluated with accurate sincosf.
//    q and an optional k share one launch (and one evaluation of cos/sin).
//    out may alias the input.
#pragma once
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { KL_ROPE_F32 = 0, KL_ROPE_F16 = 1, KL_ROPE_BF16 = 2 };
enum { KL_ROPE_EDTYPE = -1, KL_ROPE_EARGS = -2, KL_ROPE_ESIZE = -3 };

typedef struct {
  void* q;
  void* k;  // may be NULL
  const void* positions;
  int positions_int32;  // 0: int64
  const void* cache;
  int cache_dtype;       // KL_ROPE_*: fp32 or the dtype of q
  int64_t cache_stride;  // elements between rows of the cache
  int64_t tokens;
  int hq, hk, head_dim, rot_dim;
  int64_t q_st, q_sh, k_st, k_sh;  // token and head strides (elements)
  int dtype;
  // per-token mode (positions == NULL): same dtype (cache_dtype) and strides
  const void* cos;
  const void* sin;
  int64_t seq, cs_batch, cs_token;  // tokens per batch; strides in elements
} KlRopeNeoxParams;

int kl_rope_neox(const KlRopeNeoxParams* p, cudaStream_t stream);

typedef struct {
  void* out_q;
  const void* q;
  void* out_k;     // NULL together with k
  const void* k;
  int64_t rows, inner, dim;  // rows = B * S, inner = S
  int64_t oq_so, oq_si, q_so, q_si, ok_so, ok_si, k_so, k_si;
  // mode 0: given cos/sin (fp32)
  const float* cos;
  const float* sin;
  int64_t cs_so, cs_si;  // shared by cos and sin
  // mode 1: computed from grid coordinates
  const float* grid;
  int64_t g_so, g_si, g_sc;
  const float* freqs;
  int nfreq;
  int mode;
  int dtype;
} KlRopeInterleavedParams;

int kl_rope_interleaved(const KlRopeInterleavedParams* p, cudaStream_t stream);

// Benchmark-only, process-global: variant % 10 sets the heads per thread of
// the NeoX vector kernel 1, 2, 4 (1, 2, 3), 0 = automatic (1); variant / 10
// the load policy (1: ld.global.nc, 3: ld.global.cs, otherwise plain ld.global).
void kl_rope_set_variant(int variant);

#ifdef __cplusplus
}
#endif
