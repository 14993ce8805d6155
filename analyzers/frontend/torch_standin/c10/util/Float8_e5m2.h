#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/Float8_e5m2.h>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::Float8_e5m2: 1 byte, 5 exponent and 2 mantissa bits, with infinities (CUDA's E5M2).
#include <c10/util/kernel_lsp_float8.h>

namespace c10 {
KERNEL_LSP_C10_FLOAT8_TYPE(Float8_e5m2)
KERNEL_LSP_C10_FLOAT8_CUDA_CONVERSIONS(Float8_e5m2, __NV_E5M2)
inline C10_HOST_DEVICE bool Float8_e5m2::isnan() const { return (x & 0x7F) > 0x7C; }
}  // namespace c10

KERNEL_LSP_C10_NUMERIC_LIMITS(c10::Float8_e5m2, 3, -13, 16, 0xFB, 0x7B, 0x04, 0x34, 0x7C, 0x7F)
