#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/Half.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::Half (at::Half): IEEE binary16 in 2 bytes, as PyTorch lays it out (one unsigned short,
// 2-byte aligned), converting to and from float on host and device through CUDA's __half, with
// PyTorch's mixed arithmetic (kernel_lsp_reduced_float.h). Only CUDA's conversion functions are
// used, so it also works with the __CUDA_NO_HALF_OPERATORS__ / __CUDA_NO_HALF_CONVERSIONS__
// defines that PyTorch's extension builds pass.
#include <cuda_fp16.h>

#include <c10/macros/Macros.h>
#include <c10/util/C++17.h>
#include <c10/util/kernel_lsp_reduced_float.h>

namespace c10 {

struct alignas(2) Half {
  unsigned short x;

  struct from_bits_t {};
  static constexpr C10_HOST_DEVICE from_bits_t from_bits() { return from_bits_t(); }

  Half() = default;
  constexpr C10_HOST_DEVICE Half(unsigned short bits, from_bits_t) : x(bits) {}
  inline C10_HOST_DEVICE Half(float value) : x(static_cast<__half_raw>(__float2half(value)).x) {}
  inline C10_HOST_DEVICE operator float() const {
    __half_raw raw;
    raw.x = x;
    return __half2float(__half(raw));
  }
  inline C10_HOST_DEVICE Half(const __half& value) : x(static_cast<__half_raw>(value).x) {}
  inline C10_HOST_DEVICE operator __half() const {
    __half_raw raw;
    raw.x = x;
    return __half(raw);
  }
};

static_assert(sizeof(Half) == 2 && alignof(Half) == 2, "c10::Half is two bytes");

KERNEL_LSP_C10_REDUCED_FLOAT_OPS(Half)

#if defined(__CUDACC__)
// PyTorch's overload of the read-only-cache load, found by argument-dependent lookup.
inline __device__ Half __ldg(const Half* ptr) { return __ldg(reinterpret_cast<const __half*>(ptr)); }
#endif

}  // namespace c10

// binary16: 11 significand digits; lowest -65504, max 65504, min normal 2^-14, epsilon 2^-10.
KERNEL_LSP_C10_NUMERIC_LIMITS(c10::Half, 11, -13, 16, 0xFBFF, 0x7BFF, 0x0400, 0x1400, 0x7C00, 0x7E00)
