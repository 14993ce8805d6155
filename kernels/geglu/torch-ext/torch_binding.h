#pragma once

#include <ATen/core/Tensor.h>

// out[..., F] = gelu(input[..., :F]) * input[..., F:] (swapped: gelu of the
// second half times the first); gelu is the tanh approximation or exact erf.
void geglu(at::Tensor& out, const at::Tensor& input, bool tanh_approx, bool swapped);
