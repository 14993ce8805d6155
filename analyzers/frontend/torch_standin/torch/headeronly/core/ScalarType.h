#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/core/ScalarType.h>, for analysis only:
// it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real
// PyTorch headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// torch::headeronly::ScalarType is c10::ScalarType, as in PyTorch (the enumerators, the k*
// constants and the dtype <-> C++ type maps are ATen's), so a stable-ABI dispatch binds the
// same element types as an ATen one.
#include <c10/core/ScalarType.h>

namespace torch::headeronly {

using c10::ScalarType;
#define KERNEL_LSP_THO_CONSTANT(cpp_type, name) using c10::k##name;
KERNEL_LSP_C10_TYPED_SCALAR_TYPES(KERNEL_LSP_THO_CONSTANT)
#undef KERNEL_LSP_THO_CONSTANT
using c10::elementSize;
using c10::isComplexType;
using c10::isFloat8Type;
using c10::isFloatingType;
using c10::isIntegralType;
using c10::isReducedFloatingType;
using c10::toString;
using c10::impl::ScalarTypeToCPPTypeT;

}  // namespace torch::headeronly
