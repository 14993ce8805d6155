#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/typeid.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// caffe2::TypeMeta, what Tensor::dtype() returns: compares with a ScalarType
// (`x.dtype() == at::kHalf`) and knows its item size.
#include <c10/core/ScalarType.h>

namespace caffe2 {

class TypeMeta {
 public:
  constexpr TypeMeta() = default;
  constexpr TypeMeta(c10::ScalarType t) : type_(t) {}  // NOLINT: PyTorch converts implicitly
  template <typename T>
  static constexpr TypeMeta Make() { return TypeMeta(c10::CppTypeToScalarType<T>::value); }
  static constexpr TypeMeta fromScalarType(c10::ScalarType t) { return TypeMeta(t); }
  constexpr c10::ScalarType toScalarType() const { return type_; }
  constexpr size_t itemsize() const { return c10::elementSize(type_); }
  const char* name() const { return c10::toString(type_); }
  template <typename T>
  constexpr bool Match() const { return type_ == c10::CppTypeToScalarType<T>::value; }

  friend constexpr bool operator==(TypeMeta a, TypeMeta b) { return a.type_ == b.type_; }
  friend constexpr bool operator!=(TypeMeta a, TypeMeta b) { return a.type_ != b.type_; }
  friend constexpr bool operator==(TypeMeta a, c10::ScalarType b) { return a.type_ == b; }
  friend constexpr bool operator!=(TypeMeta a, c10::ScalarType b) { return a.type_ != b; }
  friend constexpr bool operator==(c10::ScalarType a, TypeMeta b) { return a == b.type_; }
  friend constexpr bool operator!=(c10::ScalarType a, TypeMeta b) { return a != b.type_; }

 private:
  c10::ScalarType type_ = c10::ScalarType::Undefined;
};

}  // namespace caffe2

namespace c10 {
inline constexpr ScalarType typeMetaToScalarType(caffe2::TypeMeta meta) { return meta.toScalarType(); }
}  // namespace c10
