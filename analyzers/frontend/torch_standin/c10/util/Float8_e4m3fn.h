#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/Float8_e4m3fn.h>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::Float8_e4m3fn: 1 byte, 4 exponent and 3 mantissa bits, no infinities (CUDA's E4M3).
#include <c10/util/kernel_lsp_float8.h>

namespace c10 {
KERNEL_LSP_C10_FLOAT8_TYPE(Float8_e4m3fn)
KERNEL_LSP_C10_FLOAT8_CUDA_CONVERSIONS(Float8_e4m3fn, __NV_E4M3)
inline C10_HOST_DEVICE bool Float8_e4m3fn::isnan() const { return (x & 0x7F) == 0x7F; }
}  // namespace c10

KERNEL_LSP_C10_NUMERIC_LIMITS(c10::Float8_e4m3fn, 4, -5, 9, 0xFE, 0x7E, 0x08, 0x20, 0, 0x7F)
