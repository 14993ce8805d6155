#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/core/Scalar.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::Scalar: a number of any dtype, as fill values and factory arguments take it.
#include <cstdint>
#include <type_traits>

#include <c10/core/ScalarType.h>

namespace c10 {

class Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  Scalar(T value) : is_floating_(std::is_floating_point_v<T>), value_(static_cast<double>(value)) {}  // NOLINT
  Scalar(c10::Half value) : Scalar(static_cast<float>(value)) {}  // NOLINT
  Scalar(c10::BFloat16 value) : Scalar(static_cast<float>(value)) {}  // NOLINT

  template <typename T>
  T to() const { return static_cast<T>(value_); }
  double toDouble() const { return value_; }
  float toFloat() const { return static_cast<float>(value_); }
  int64_t toLong() const { return static_cast<int64_t>(value_); }
  int toInt() const { return static_cast<int>(value_); }
  bool toBool() const { return value_ != 0; }
  bool isFloatingPoint() const { return is_floating_; }
  bool isIntegral(bool include_bool) const { return !is_floating_ || include_bool; }

 private:
  bool is_floating_;
  double value_;
};

}  // namespace c10
