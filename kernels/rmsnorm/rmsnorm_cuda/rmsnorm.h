// Plain C interface of the RMSNorm kernels (no torch headers).
//
// Rows of `cols` elements are addressed through a two-level index so that
// strided views (e.g. the q part of a fused qkv projection viewed as
// [T, heads, head_dim]) need no copy: row r lives at
//   base + (r / inner) * stride_outer + (r % inner) * stride_inner   (elements)
// and its `cols` elements are contiguous.
//
// kl_rmsnorm_forward computes
//   plain:     out = round(w * (x * rstd))                     (single rounding)
//              out = round(w * round(x * rstd))                (double rounding, Qwen3/Llama)
//   fused add: s = round(x + residual); residual_out = s; out = norm(s)
// with rstd = 1 / sqrt(mean(x^2) + eps) accumulated in fp32. residual_out may
// alias residual (in place); out may alias x. The weight is optional.
// It picks a register-resident 16-byte-vector path when every pointer is
// 16-byte aligned, every row stride and cols are multiples of 16 bytes and
// the row fits; otherwise a looped path whose access width is the widest of
// 16/8/4/2 bytes (or one element) that every pointer, stride and cols allow.
#pragma once
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { KL_RMS_F32 = 0, KL_RMS_F16 = 1, KL_RMS_BF16 = 2 };

typedef struct {
  void* out;
  const void* in;
  const void* residual;  // NULL: plain RMSNorm
  void* residual_out;    // required when residual != NULL (may equal residual)
  const void* weight;    // NULL: no weight
  int64_t rows, cols, inner;
  int64_t out_so, out_si, in_so, in_si, res_so, res_si, rout_so, rout_si;
  float eps;
  int double_round;
  int dtype;  // KL_RMS_*
} KlRmsNormParams;

// Returns 0 on success, a negative KL_RMS_E* code for bad arguments, or a
// positive cudaError_t value when the launch failed.
enum { KL_RMS_EDTYPE = -1, KL_RMS_EARGS = -2, KL_RMS_ESIZE = -3 };
int kl_rmsnorm_forward(const KlRmsNormParams* p, cudaStream_t stream);

// Which path the last call with these parameters takes (for tests and
// benchmarks): 0 register/16-byte, 1 looped with the returned vector bytes.
int kl_rmsnorm_path(const KlRmsNormParams* p, int* vector_bytes);

// Benchmark-only, process-global: variant % 10 forces a launch shape for
// bf16/fp16 rows of 128 (1..4) or 4096 (2..4) elements, 0 = automatic;
// variant / 10 the load policy (1: ld.global.nc, 3: ld.global.cs, otherwise
// plain ld.global).
void kl_rmsnorm_set_variant(int variant);

#ifdef __cplusplus
}
#endif
