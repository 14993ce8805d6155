#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/BFloat16.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::BFloat16 (at::BFloat16): bfloat16 in 2 bytes, as PyTorch lays it out (one uint16_t,
// 2-byte aligned), converting to and from float on host and device through CUDA's
// __nv_bfloat16, with PyTorch's mixed arithmetic (kernel_lsp_reduced_float.h). Only CUDA's
// conversion functions are used, so it also works with __CUDA_NO_BFLOAT16_CONVERSIONS__.
#include <cuda_bf16.h>

#include <c10/macros/Macros.h>
#include <c10/util/kernel_lsp_reduced_float.h>

namespace c10 {

struct alignas(2) BFloat16 {
  uint16_t x;

  struct from_bits_t {};
  static constexpr C10_HOST_DEVICE from_bits_t from_bits() { return from_bits_t(); }

  BFloat16() = default;
  constexpr C10_HOST_DEVICE BFloat16(unsigned short bits, from_bits_t) : x(bits) {}
  inline C10_HOST_DEVICE BFloat16(float value)
      : x(static_cast<__nv_bfloat16_raw>(__float2bfloat16(value)).x) {}
  inline C10_HOST_DEVICE operator float() const {
    __nv_bfloat16_raw raw;
    raw.x = x;
    return __bfloat162float(__nv_bfloat16(raw));
  }
  inline C10_HOST_DEVICE BFloat16(const __nv_bfloat16& value)
      : x(static_cast<__nv_bfloat16_raw>(value).x) {}
  // Explicit, as in PyTorch: an implicit one would make `a < b` ambiguous with CUDA's operators.
  explicit inline C10_HOST_DEVICE operator __nv_bfloat16() const {
    __nv_bfloat16_raw raw;
    raw.x = x;
    return __nv_bfloat16(raw);
  }
};

static_assert(sizeof(BFloat16) == 2 && alignof(BFloat16) == 2, "c10::BFloat16 is two bytes");

KERNEL_LSP_C10_REDUCED_FLOAT_OPS(BFloat16)

// PyTorch declares these two (on non-const references) for std::max and std::min.
inline C10_HOST_DEVICE bool operator>(BFloat16& lhs, BFloat16& rhs) { return float(lhs) > float(rhs); }
inline C10_HOST_DEVICE bool operator<(BFloat16& lhs, BFloat16& rhs) { return float(lhs) < float(rhs); }

#if defined(__CUDACC__)
// PyTorch's overload of the read-only-cache load, found by argument-dependent lookup.
inline __device__ BFloat16 __ldg(const BFloat16* ptr) {
  return __ldg(reinterpret_cast<const __nv_bfloat16*>(ptr));
}
#endif

}  // namespace c10

// bfloat16: 8 significand digits, float's exponent range; epsilon 2^-7.
KERNEL_LSP_C10_NUMERIC_LIMITS(c10::BFloat16, 8, -125, 128, 0xFF7F, 0x7F7F, 0x0080, 0x3C00, 0x7F80, 0x7FC0)
