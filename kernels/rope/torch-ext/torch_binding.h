#pragma once

#include <ATen/core/Tensor.h>

// NeoX rotate-half RoPE on q [..., Hq, D] and k [..., Hk, D] in place, one
// launch. positions: int64 or int32 with one entry per token; cos_sin_cache:
// [max_pos, rot_dim] (cos half, then sin half), fp32 or the dtype of q. An
// empty k means q only.
void rope_neox(at::Tensor& q, at::Tensor& k, const at::Tensor& positions,
               const at::Tensor& cos_sin_cache);

// The same with cos/sin given per token, as transformers passes them:
// [..., S, rot_dim] whose batch dimensions are 1 (shared) or q's; only the
// first rot_dim / 2 entries of each row are read (the second half repeats
// them). fp32 or the dtype of q.
void rope_neox_cos_sin(at::Tensor& q, at::Tensor& k, const at::Tensor& cos,
                       const at::Tensor& sin);

// Interleaved RoPE over the full width of q, k [B, S, D] with fp32 cos/sin
// [B or 1, S, D]. out_* may alias the inputs; empty k / out_k mean q only.
void rope_interleaved(at::Tensor& out_q, at::Tensor& out_k, const at::Tensor& q,
                      const at::Tensor& k, const at::Tensor& cos, const at::Tensor& sin);

// LTX-Video 3D RoPE with cos/sin computed in the kernel from grid [B or 1, S, 3]
// (fp32 coordinates divided by the base sizes) and freqs [D / 6] (fp32).
void rope_ltx_grid(at::Tensor& out_q, at::Tensor& out_k, const at::Tensor& q,
                   const at::Tensor& k, const at::Tensor& grid, const at::Tensor& freqs);

// Benchmark-only: force a launch shape (see kl_rope_set_variant); 0 = automatic.
void set_variant(int64_t variant);
