#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/core/ScalarType.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::ScalarType with PyTorch's enumerators in PyTorch's order, the k* constants (at::kHalf),
// and the dtype <-> C++ type maps the AT_DISPATCH macros bind scalar_t with.
#include <cstddef>
#include <cstdint>
#include <iosfwd>

#include <c10/macros/Macros.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Float8_e4m3fn.h>
#include <c10/util/Float8_e4m3fnuz.h>
#include <c10/util/Float8_e5m2.h>
#include <c10/util/Float8_e5m2fnuz.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

namespace c10 {

enum class ScalarType : int8_t {
  Byte, Char, Short, Int, Long, Half, Float, Double,
  ComplexHalf, ComplexFloat, ComplexDouble, Bool,
  QInt8, QUInt8, QInt32, BFloat16, QUInt4x2, QUInt2x4,
  Bits1x8, Bits2x4, Bits4x2, Bits8, Bits16,
  Float8_e5m2, Float8_e4m3fn, Float8_e5m2fnuz, Float8_e4m3fnuz,
  UInt16, UInt32, UInt64,
  UInt1, UInt2, UInt3, UInt4, UInt5, UInt6, UInt7,
  Int1, Int2, Int3, Int4, Int5, Int6, Int7,
  Float8_e8m0fnu, Float4_e2m1fn_x2,
  Undefined,
  NumOptions
};

// The dtypes that have a C++ element type: (C++ type, enumerator).
#define KERNEL_LSP_C10_TYPED_SCALAR_TYPES(_)                                                  \
  _(uint8_t, Byte) _(int8_t, Char) _(int16_t, Short) _(int, Int) _(int64_t, Long)             \
  _(c10::Half, Half) _(float, Float) _(double, Double) _(c10::complex<c10::Half>, ComplexHalf) \
  _(c10::complex<float>, ComplexFloat) _(c10::complex<double>, ComplexDouble) _(bool, Bool)   \
  _(c10::BFloat16, BFloat16) _(c10::Float8_e5m2, Float8_e5m2)                                 \
  _(c10::Float8_e4m3fn, Float8_e4m3fn) _(c10::Float8_e5m2fnuz, Float8_e5m2fnuz)               \
  _(c10::Float8_e4m3fnuz, Float8_e4m3fnuz) _(uint16_t, UInt16) _(uint32_t, UInt32)            \
  _(uint64_t, UInt64)

#define KERNEL_LSP_C10_CONSTANT(cpp_type, name) constexpr ScalarType k##name = ScalarType::name;
KERNEL_LSP_C10_TYPED_SCALAR_TYPES(KERNEL_LSP_C10_CONSTANT)
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;
constexpr ScalarType kFloat8_e8m0fnu = ScalarType::Float8_e8m0fnu;
constexpr ScalarType kFloat4_e2m1fn_x2 = ScalarType::Float4_e2m1fn_x2;
#undef KERNEL_LSP_C10_CONSTANT

namespace impl {
template <ScalarType N>
struct ScalarTypeToCPPType;
#define KERNEL_LSP_C10_TO_CPP(cpp_type, name) \
  template <>                                 \
  struct ScalarTypeToCPPType<ScalarType::name> { using type = cpp_type; };
KERNEL_LSP_C10_TYPED_SCALAR_TYPES(KERNEL_LSP_C10_TO_CPP)
#undef KERNEL_LSP_C10_TO_CPP
template <ScalarType N>
using ScalarTypeToCPPTypeT = typename ScalarTypeToCPPType<N>::type;
}  // namespace impl

template <typename T>
struct CppTypeToScalarType;
#define KERNEL_LSP_C10_FROM_CPP(cpp_type, name) \
  template <>                                   \
  struct CppTypeToScalarType<cpp_type> { static constexpr ScalarType value = ScalarType::name; };
KERNEL_LSP_C10_TYPED_SCALAR_TYPES(KERNEL_LSP_C10_FROM_CPP)
#undef KERNEL_LSP_C10_FROM_CPP

constexpr size_t elementSize(ScalarType t) {
#define KERNEL_LSP_C10_SIZE(cpp_type, name) \
  if (t == ScalarType::name) return sizeof(cpp_type);
  KERNEL_LSP_C10_TYPED_SCALAR_TYPES(KERNEL_LSP_C10_SIZE)
#undef KERNEL_LSP_C10_SIZE
  return 1;
}

constexpr bool isFloat8Type(ScalarType t) {
  return t == ScalarType::Float8_e5m2 || t == ScalarType::Float8_e4m3fn ||
         t == ScalarType::Float8_e5m2fnuz || t == ScalarType::Float8_e4m3fnuz ||
         t == ScalarType::Float8_e8m0fnu;
}
constexpr bool isReducedFloatingType(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 || isFloat8Type(t);
}
constexpr bool isFloatingType(ScalarType t) {
  return t == ScalarType::Double || t == ScalarType::Float || isReducedFloatingType(t);
}
constexpr bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}
constexpr bool isIntegralType(ScalarType t, bool include_bool) {
  return t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short ||
         t == ScalarType::Int || t == ScalarType::Long || t == ScalarType::UInt16 ||
         t == ScalarType::UInt32 || t == ScalarType::UInt64 || (include_bool && t == ScalarType::Bool);
}

const char* toString(ScalarType t);
std::ostream& operator<<(std::ostream& stream, ScalarType t);

}  // namespace c10
