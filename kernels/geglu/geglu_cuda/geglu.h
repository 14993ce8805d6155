// Plain C interface of the GEGLU kernels (no torch headers).
//
// For rows of x [..., 2F]:  out[..., i] = gelu(x[..., i]) * x[..., F + i]
// (swapped: gelu(x[..., F + i]) * x[..., i]), gelu either the tanh
// approximation (PyTorch approximate="tanh") or the exact erf form. fp32
// math, one rounding. Rows use the two-level addressing of row_layout.h:
// row r starts at (r / inner) * stride_outer + (r % inner) * stride_inner.
#pragma once
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { KL_GEGLU_F32 = 0, KL_GEGLU_F16 = 1, KL_GEGLU_BF16 = 2 };
enum { KL_GEGLU_EDTYPE = -1, KL_GEGLU_EARGS = -2, KL_GEGLU_ESIZE = -3 };

typedef struct {
  void* out;
  const void* in;
  int64_t rows, inner, f;
  int64_t out_so, out_si, in_so, in_si;
  int tanh_approx;  // 1: tanh approximation, 0: erf
  int swapped;      // 1: gelu on the second half
  int dtype;
} KlGegluParams;

int kl_geglu(const KlGegluParams* p, cudaStream_t stream);

// Benchmark-only, process-global: variant % 10 sets the 16-byte vectors per
// thread 1 (1), 2 (2), 4 (3), 0 = automatic (1); variant / 10 the load
// policy (1: ld.global.nc, 3: ld.global.cs, otherwise plain ld.global).
void kl_geglu_set_variant(int variant);

#ifdef __cplusplus
}
#endif
