#pragma once

#include <ATen/core/Tensor.h>

// out[..., F] = gelu(input[..., :F]) * input[..., F:] (swapped: gelu of the
// second half times the first); gelu is the tanh approximation or exact erf.
void geglu(at::Tensor& out, const at::Tensor& input, bool tanh_approx, bool swapped);

// Benchmark-only: force a launch shape (see kl_geglu_set_variant); 0 = automatic.
void set_variant(int64_t variant);
