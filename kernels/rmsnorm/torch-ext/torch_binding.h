#pragma once

#include <ATen/core/Tensor.h>

#include <optional>
#include <tuple>

// out = RMSNorm(input) * weight; out may alias input.
void rms_norm(at::Tensor& out, const at::Tensor& input, const std::optional<at::Tensor>& weight,
              double eps, bool double_rounding);

// residual_out = input + residual (rounded to the dtype); out = RMSNorm(residual_out) * weight.
// residual_out may be residual itself (in place).
void fused_add_rms_norm(at::Tensor& out, at::Tensor& residual_out, const at::Tensor& input,
                        const at::Tensor& residual, const std::optional<at::Tensor>& weight,
                        double eps, bool double_rounding);

// The same two as functions that return new tensors (out like input). torch.compile sees them as
// pure functions: no mutation to functionalize, and a graph pass can swap one for the other
// (rmsnorm/compile_fusion.py).
at::Tensor rms_norm_fn(const at::Tensor& input, const std::optional<at::Tensor>& weight, double eps,
                       bool double_rounding);
std::tuple<at::Tensor, at::Tensor> fused_add_rms_norm_fn(const at::Tensor& input,
                                                         const at::Tensor& residual,
                                                         const std::optional<at::Tensor>& weight,
                                                         double eps, bool double_rounding);

// 100 * path + access bytes; path 0: register-resident 16-byte path, 1: looped path.
int64_t rms_norm_path(const at::Tensor& out, const at::Tensor& input,
                                   const std::optional<at::Tensor>& weight);

// Benchmark-only: force a launch shape (see kl_rmsnorm_set_variant); 0 = automatic.
void set_variant(int64_t variant);
