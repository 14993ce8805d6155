#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/complex.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::complex<T>: two T side by side, aligned to their sum (as PyTorch lays it out), with the
// arithmetic kernels dispatched over complex types use.
#include <c10/macros/Macros.h>
#include <c10/util/Half.h>

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
template <typename T>
C10_HOST_DEVICE constexpr bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.real() == b.real() && a.imag() == b.imag();
}
template <typename T>
C10_HOST_DEVICE constexpr bool operator!=(const complex<T>& a, const complex<T>& b) { return !(a == b); }

}  // namespace c10
