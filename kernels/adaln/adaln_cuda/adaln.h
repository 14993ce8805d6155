// Plain C interface of the AdaLN kernels (no torch headers).
//
// For x [B, S, D] (rows r = b * S + s):
//   optional gated residual:  x = round(h + branch * gate);  x_out = x
//   n = RMSNorm(x) or LayerNorm(x), no weight, fp32 statistics
//   out = round(n * (1 + scale) + shift)
// scale / shift / gate are [B, 1, D] (per sample: token stride 0) or [B, S, D]
// (per token); either of scale and shift may be absent. Every tensor has a
// contiguous last dimension and its own (batch, token) strides in elements.
// out may alias x; x_out may alias h.
#pragma once
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { KL_ADALN_F32 = 0, KL_ADALN_F16 = 1, KL_ADALN_BF16 = 2 };
enum { KL_ADALN_EDTYPE = -1, KL_ADALN_EARGS = -2, KL_ADALN_ESIZE = -3 };

typedef struct {
  const void* ptr;
  int64_t sb, ss;  // batch and token strides (elements)
} KlAdaLNTensor;

typedef struct {
  KlAdaLNTensor out;    // written
  KlAdaLNTensor x;      // input (h when gated)
  KlAdaLNTensor branch; // gated residual: branch output (NULL: no residual)
  KlAdaLNTensor gate;   // gated residual: gate (NULL: gate of 1)
  KlAdaLNTensor x_out;  // gated residual: updated residual stream (written)
  KlAdaLNTensor scale;  // NULL: no scale
  KlAdaLNTensor shift;  // NULL: no shift
  int64_t batch, seq, dim;
  float eps;
  int layernorm;  // 0: RMSNorm, 1: LayerNorm
  int dtype;
} KlAdaLNParams;

int kl_adaln(const KlAdaLNParams* p, cudaStream_t stream);

// Benchmark-only, process-global: variant % 10 forces a launch shape for
// bf16/fp16 rows of 2048 or 4096 elements (1..5, 9; 0 = automatic);
// variant / 10 the load policy (1: ld.global.nc, 3: ld.global.cs, otherwise
// plain ld.global).
void kl_adaln_set_variant(int variant);

#ifdef __cplusplus
}
#endif
