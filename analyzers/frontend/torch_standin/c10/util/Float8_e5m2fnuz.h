#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/Float8_e5m2fnuz.h>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::Float8_e5m2fnuz: 1 byte, the AMD variant (exponent bias 16, NaN 0x80, no -0, no inf).
// Its conversions are declared only (see kernel_lsp_float8.h).
#include <c10/util/kernel_lsp_float8.h>

namespace c10 {
KERNEL_LSP_C10_FLOAT8_TYPE(Float8_e5m2fnuz)
}  // namespace c10

KERNEL_LSP_C10_NUMERIC_LIMITS(c10::Float8_e5m2fnuz, 3, -14, 16, 0xFF, 0x7F, 0x04, 0x38, 0, 0x80)
