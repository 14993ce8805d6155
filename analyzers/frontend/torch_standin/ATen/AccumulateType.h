#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/AccumulateType.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// at::acc_type<T, is_cuda>: the type PyTorch accumulates T in (on CUDA: float for the narrow
// floats, int64_t for integers; on the CPU float itself widens to double).
#include <c10/core/ScalarType.h>

namespace at {

template <typename T, bool is_cuda>
struct AccumulateType;

#define KERNEL_LSP_AT_ACC(T, CUDA_ACC, CPU_ACC)                   \
  template <>                                                     \
  struct AccumulateType<T, true> { using type = CUDA_ACC; };      \
  template <>                                                     \
  struct AccumulateType<T, false> { using type = CPU_ACC; };
KERNEL_LSP_AT_ACC(c10::Half, float, float)
KERNEL_LSP_AT_ACC(c10::BFloat16, float, float)
KERNEL_LSP_AT_ACC(c10::Float8_e5m2, float, float)
KERNEL_LSP_AT_ACC(c10::Float8_e4m3fn, float, float)
KERNEL_LSP_AT_ACC(c10::Float8_e5m2fnuz, float, float)
KERNEL_LSP_AT_ACC(c10::Float8_e4m3fnuz, float, float)
KERNEL_LSP_AT_ACC(float, float, double)
KERNEL_LSP_AT_ACC(double, double, double)
KERNEL_LSP_AT_ACC(int8_t, int64_t, int64_t)
KERNEL_LSP_AT_ACC(uint8_t, int64_t, int64_t)
KERNEL_LSP_AT_ACC(char, int64_t, int64_t)
KERNEL_LSP_AT_ACC(int16_t, int64_t, int64_t)
KERNEL_LSP_AT_ACC(int32_t, int64_t, int64_t)
KERNEL_LSP_AT_ACC(int64_t, int64_t, int64_t)
KERNEL_LSP_AT_ACC(bool, bool, bool)
KERNEL_LSP_AT_ACC(c10::complex<c10::Half>, c10::complex<float>, c10::complex<float>)
KERNEL_LSP_AT_ACC(c10::complex<float>, c10::complex<float>, c10::complex<double>)
KERNEL_LSP_AT_ACC(c10::complex<double>, c10::complex<double>, c10::complex<double>)
#undef KERNEL_LSP_AT_ACC

template <typename T, bool is_cuda>
using acc_type = typename AccumulateType<T, is_cuda>::type;

}  // namespace at
