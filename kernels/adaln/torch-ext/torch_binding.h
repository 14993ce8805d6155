#pragma once

#include <ATen/core/Tensor.h>

#include <optional>

// out = norm(x) * (1 + scale) + shift for x [B, S, D] (or [S, D]); norm is
// RMSNorm (layernorm false) or LayerNorm, without weight. scale / shift:
// [B or 1, 1 or S, D] or [D], either may be None.
void adaln(at::Tensor& out, const at::Tensor& x, const std::optional<at::Tensor>& scale,
           const std::optional<at::Tensor>& shift, double eps, bool layernorm);

// Gated residual fused in front: h_out = h + branch * gate (gate None: 1),
// then out = norm(h_out) * (1 + scale) + shift. h_out may be h (in place).
void adaln_gated(at::Tensor& out, at::Tensor& h_out, const at::Tensor& h,
                 const at::Tensor& branch, const std::optional<at::Tensor>& gate,
                 const std::optional<at::Tensor>& scale, const std::optional<at::Tensor>& shift,
                 double eps, bool layernorm);

// Benchmark-only: force a launch shape (see kl_adaln_set_variant); 0 = automatic.
void set_variant(int64_t variant);
