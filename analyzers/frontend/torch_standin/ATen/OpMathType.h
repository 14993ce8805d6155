#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/OpMathType.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// at::opmath_type<T>: the type PyTorch computes one element's math in (float for the narrow
// floats, T otherwise).
#include <c10/core/ScalarType.h>

namespace at {

template <typename T>
struct OpMathType { using type = T; };
template <> struct OpMathType<c10::Half> { using type = float; };
template <> struct OpMathType<c10::BFloat16> { using type = float; };
template <> struct OpMathType<c10::Float8_e5m2> { using type = float; };
template <> struct OpMathType<c10::Float8_e4m3fn> { using type = float; };
template <> struct OpMathType<c10::Float8_e5m2fnuz> { using type = float; };
template <> struct OpMathType<c10::Float8_e4m3fnuz> { using type = float; };
template <> struct OpMathType<c10::complex<c10::Half>> { using type = c10::complex<float>; };

template <typename T>
using opmath_type = typename OpMathType<T>::type;

}  // namespace at
