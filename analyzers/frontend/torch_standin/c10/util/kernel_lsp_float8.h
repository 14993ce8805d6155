#pragma once
// Part of kernel-lsp's stand-in for PyTorch's headers, for analysis only (PyTorch 2.x API;
// real headers win when found). Not a PyTorch header: the skeleton the stand-in's four Float8
// types share. Each is one byte (a uint8_t `x`, as in PyTorch) with float conversions on host
// and device and PyTorch's mixed arithmetic. The e4m3fn / e5m2 conversions go through CUDA's
// __nv_cvt_* functions (Float8_e4m3fn.h, Float8_e5m2.h); the fnuz types, which CUDA lacks, only
// declare theirs: enough for the analysis, which needs the types and sizes, not the values.
#include <cuda_fp8.h>

#include <c10/macros/Macros.h>
#include <c10/util/kernel_lsp_reduced_float.h>

#define KERNEL_LSP_C10_FLOAT8_TYPE(NAME)                                       \
  struct alignas(1) NAME {                                                     \
    uint8_t x;                                                                 \
    struct from_bits_t {};                                                     \
    static constexpr C10_HOST_DEVICE from_bits_t from_bits() { return from_bits_t(); } \
    NAME() = default;                                                          \
    constexpr C10_HOST_DEVICE NAME(uint8_t bits, from_bits_t) : x(bits) {}     \
    C10_HOST_DEVICE NAME(float value);                                         \
    C10_HOST_DEVICE operator float() const;                                    \
    C10_HOST_DEVICE bool isnan() const;                                        \
  };                                                                           \
  static_assert(sizeof(NAME) == 1, #NAME " is one byte");                      \
  KERNEL_LSP_C10_REDUCED_FLOAT_OPS(NAME)

// The conversions of a type CUDA knows (`interpretation` is __NV_E4M3 or __NV_E5M2).
#define KERNEL_LSP_C10_FLOAT8_CUDA_CONVERSIONS(NAME, interpretation)                        \
  inline C10_HOST_DEVICE NAME::NAME(float value)                                            \
      : x(__nv_cvt_float_to_fp8(value, __NV_SATFINITE, interpretation)) {}                 \
  inline C10_HOST_DEVICE NAME::operator float() const {                                     \
    return __half2float(__half(__nv_cvt_fp8_to_halfraw(x, interpretation)));                \
  }
