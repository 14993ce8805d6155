#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/complex_math.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The std:: math functions for c10::complex that PyTorch declares (host and device), so that
// kernels over complex weights (Mamba's selective scan) call std::exp(z) as with the real
// headers. Declared only: the analysis needs their types.
#include <c10/macros/Macros.h>

namespace c10 {
template <typename T>
struct complex;
}  // namespace c10

namespace std {

#define KERNEL_LSP_C10_COMPLEX_UNARY(name) \
  template <typename T>                    \
  C10_HOST_DEVICE c10::complex<T> name(const c10::complex<T>& z);
KERNEL_LSP_C10_COMPLEX_UNARY(exp)
KERNEL_LSP_C10_COMPLEX_UNARY(log)
KERNEL_LSP_C10_COMPLEX_UNARY(log10)
KERNEL_LSP_C10_COMPLEX_UNARY(log2)
KERNEL_LSP_C10_COMPLEX_UNARY(log1p)
KERNEL_LSP_C10_COMPLEX_UNARY(expm1)
KERNEL_LSP_C10_COMPLEX_UNARY(sqrt)
KERNEL_LSP_C10_COMPLEX_UNARY(sin)
KERNEL_LSP_C10_COMPLEX_UNARY(cos)
KERNEL_LSP_C10_COMPLEX_UNARY(tan)
KERNEL_LSP_C10_COMPLEX_UNARY(asin)
KERNEL_LSP_C10_COMPLEX_UNARY(acos)
KERNEL_LSP_C10_COMPLEX_UNARY(atan)
KERNEL_LSP_C10_COMPLEX_UNARY(sinh)
KERNEL_LSP_C10_COMPLEX_UNARY(cosh)
KERNEL_LSP_C10_COMPLEX_UNARY(tanh)
KERNEL_LSP_C10_COMPLEX_UNARY(asinh)
KERNEL_LSP_C10_COMPLEX_UNARY(acosh)
KERNEL_LSP_C10_COMPLEX_UNARY(atanh)
#undef KERNEL_LSP_C10_COMPLEX_UNARY

template <typename T>
C10_HOST_DEVICE c10::complex<T> pow(const c10::complex<T>& base, const c10::complex<T>& exponent);
template <typename T>
C10_HOST_DEVICE c10::complex<T> pow(const c10::complex<T>& base, const T& exponent);
template <typename T>
C10_HOST_DEVICE c10::complex<T> pow(const T& base, const c10::complex<T>& exponent);

}  // namespace std
