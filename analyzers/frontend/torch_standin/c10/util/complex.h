#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/complex.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::complex<T>: two T side by side, aligned to their sum (as PyTorch lays it out), with the
// arithmetic kernels dispatched over complex types use.
#include <c10/macros/Macros.h>
#include <c10/util/Half.h>
#include <c10/util/complex_math.h>

namespace c10 {

template <typename T>
struct alignas(sizeof(T) * 2) complex {
  using value_type = T;
  T real_ = T(0);
  T imag_ = T(0);

  constexpr complex() = default;
  C10_HOST_DEVICE constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}
  template <typename U>
  C10_HOST_DEVICE explicit constexpr complex(const complex<U>& other)
      : real_(static_cast<T>(other.real())), imag_(static_cast<T>(other.imag())) {}

  C10_HOST_DEVICE constexpr T real() const { return real_; }
  C10_HOST_DEVICE constexpr T imag() const { return imag_; }
  C10_HOST_DEVICE constexpr void real(T value) { real_ = value; }
  C10_HOST_DEVICE constexpr void imag(T value) { imag_ = value; }

  C10_HOST_DEVICE constexpr complex& operator+=(const complex& o) { real_ += o.real_; imag_ += o.imag_; return *this; }
  C10_HOST_DEVICE constexpr complex& operator-=(const complex& o) { real_ -= o.real_; imag_ -= o.imag_; return *this; }
  C10_HOST_DEVICE constexpr complex& operator*=(const complex& o) {
    T re = real_ * o.real_ - imag_ * o.imag_;
    imag_ = real_ * o.imag_ + imag_ * o.real_;
    real_ = re;
    return *this;
  }
  C10_HOST_DEVICE constexpr complex& operator/=(const complex& o) {
    T d = o.real_ * o.real_ + o.imag_ * o.imag_;
    T re = (real_ * o.real_ + imag_ * o.imag_) / d;
    imag_ = (imag_ * o.real_ - real_ * o.imag_) / d;
    real_ = re;
    return *this;
  }
};

template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator+(complex<T> a, const complex<T>& b) { return a += b; }
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator-(complex<T> a, const complex<T>& b) { return a -= b; }
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator*(complex<T> a, const complex<T>& b) { return a *= b; }
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator/(complex<T> a, const complex<T>& b) { return a /= b; }
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator-(const complex<T>& a) { return complex<T>(-a.real(), -a.imag()); }
// With a scalar of the element type on either side, as PyTorch has them: a template's deduction
// would not convert the scalar to complex<T>, so `x * w` with a float x and a complex weight
// needs these.
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator+(const complex<T>& a, const T& b) {
  return complex<T>(a.real() + b, a.imag());
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator+(const T& a, const complex<T>& b) {
  return complex<T>(a + b.real(), b.imag());
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator-(const complex<T>& a, const T& b) {
  return complex<T>(a.real() - b, a.imag());
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator-(const T& a, const complex<T>& b) {
  return complex<T>(a - b.real(), -b.imag());
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator*(const complex<T>& a, const T& b) {
  return complex<T>(a.real() * b, a.imag() * b);
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator*(const T& a, const complex<T>& b) {
  return complex<T>(a * b.real(), a * b.imag());
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator/(const complex<T>& a, const T& b) {
  return complex<T>(a.real() / b, a.imag() / b);
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator/(const T& a, const complex<T>& b) {
  return complex<T>(a) / b;
}
template <typename T>
C10_HOST_DEVICE constexpr complex<T> operator+(const complex<T>& a) { return a; }
template <typename T>
C10_HOST_DEVICE constexpr bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.real() == b.real() && a.imag() == b.imag();
}
template <typename T>
C10_HOST_DEVICE constexpr bool operator!=(const complex<T>& a, const complex<T>& b) { return !(a == b); }

}  // namespace c10

// The accessors PyTorch adds to std:: for c10::complex, as std::complex has them.
namespace std {
template <typename T>
C10_HOST_DEVICE constexpr T real(const c10::complex<T>& z) {
  return z.real();
}
template <typename T>
C10_HOST_DEVICE constexpr T imag(const c10::complex<T>& z) {
  return z.imag();
}
template <typename T>
C10_HOST_DEVICE constexpr c10::complex<T> conj(const c10::complex<T>& z) {
  return c10::complex<T>(z.real(), -z.imag());
}
template <typename T>
C10_HOST_DEVICE constexpr T norm(const c10::complex<T>& z) {
  return z.real() * z.real() + z.imag() * z.imag();
}
template <typename T>
C10_HOST_DEVICE T abs(const c10::complex<T>& z);
template <typename T>
C10_HOST_DEVICE T arg(const c10::complex<T>& z);
template <typename T>
C10_HOST_DEVICE c10::complex<T> polar(const T& r, const T& theta = T());
}  // namespace std
