#pragma once
// Part of kernel-lsp's stand-in for PyTorch's headers, for analysis only (PyTorch 2.x API;
// real headers win when found). Not a PyTorch header: shared by the stand-in's Half, BFloat16
// and Float8 types.
//
// PyTorch gives each of its narrow float types the same mixed arithmetic: T op T -> T (computed
// in float), T op float -> float, T op double -> double, T op int / int64_t -> T, and compound
// assignment. Kernels' expressions take their types from these overloads (`acc += x[i] * w`),
// so the stand-in defines the same set, once, for each type.
#include <cstdint>
#include <limits>

#include <c10/macros/Macros.h>

#define KERNEL_LSP_C10_BINARY_OPS(T, OTHER, RESULT)                                              \
  inline C10_HOST_DEVICE RESULT operator+(T a, OTHER b) { return static_cast<RESULT>(static_cast<float>(a) + b); } \
  inline C10_HOST_DEVICE RESULT operator-(T a, OTHER b) { return static_cast<RESULT>(static_cast<float>(a) - b); } \
  inline C10_HOST_DEVICE RESULT operator*(T a, OTHER b) { return static_cast<RESULT>(static_cast<float>(a) * b); } \
  inline C10_HOST_DEVICE RESULT operator/(T a, OTHER b) { return static_cast<RESULT>(static_cast<float>(a) / b); } \
  inline C10_HOST_DEVICE RESULT operator+(OTHER a, T b) { return static_cast<RESULT>(a + static_cast<float>(b)); } \
  inline C10_HOST_DEVICE RESULT operator-(OTHER a, T b) { return static_cast<RESULT>(a - static_cast<float>(b)); } \
  inline C10_HOST_DEVICE RESULT operator*(OTHER a, T b) { return static_cast<RESULT>(a * static_cast<float>(b)); } \
  inline C10_HOST_DEVICE RESULT operator/(OTHER a, T b) { return static_cast<RESULT>(a / static_cast<float>(b)); }

#define KERNEL_LSP_C10_REDUCED_FLOAT_OPS(T)                                                      \
  inline C10_HOST_DEVICE T operator+(const T& a, const T& b) { return T(static_cast<float>(a) + static_cast<float>(b)); } \
  inline C10_HOST_DEVICE T operator-(const T& a, const T& b) { return T(static_cast<float>(a) - static_cast<float>(b)); } \
  inline C10_HOST_DEVICE T operator*(const T& a, const T& b) { return T(static_cast<float>(a) * static_cast<float>(b)); } \
  inline C10_HOST_DEVICE T operator/(const T& a, const T& b) { return T(static_cast<float>(a) / static_cast<float>(b)); } \
  inline C10_HOST_DEVICE T operator-(const T& a) { return T(-static_cast<float>(a)); }          \
  inline C10_HOST_DEVICE T& operator+=(T& a, const T& b) { return a = a + b; }                   \
  inline C10_HOST_DEVICE T& operator-=(T& a, const T& b) { return a = a - b; }                   \
  inline C10_HOST_DEVICE T& operator*=(T& a, const T& b) { return a = a * b; }                   \
  inline C10_HOST_DEVICE T& operator/=(T& a, const T& b) { return a = a / b; }                   \
  inline C10_HOST_DEVICE float& operator+=(float& a, const T& b) { return a += static_cast<float>(b); } \
  inline C10_HOST_DEVICE float& operator-=(float& a, const T& b) { return a -= static_cast<float>(b); } \
  inline C10_HOST_DEVICE float& operator*=(float& a, const T& b) { return a *= static_cast<float>(b); } \
  inline C10_HOST_DEVICE float& operator/=(float& a, const T& b) { return a /= static_cast<float>(b); } \
  KERNEL_LSP_C10_BINARY_OPS(T, float, float)                                                     \
  KERNEL_LSP_C10_BINARY_OPS(T, double, double)                                                   \
  KERNEL_LSP_C10_BINARY_OPS(T, int, T)                                                           \
  KERNEL_LSP_C10_BINARY_OPS(T, int64_t, T)

// std::numeric_limits for a narrow float type, from its bit patterns.
#define KERNEL_LSP_C10_NUMERIC_LIMITS(T, DIGITS, MIN_EXP, MAX_EXP, LOWEST, MAX, MIN, EPSILON, INF, NAN_BITS) \
  namespace std {                                                                                \
  template <>                                                                                    \
  class numeric_limits<T> {                                                                      \
   public:                                                                                       \
    static constexpr bool is_specialized = true;                                                 \
    static constexpr bool is_signed = true;                                                      \
    static constexpr bool is_integer = false;                                                    \
    static constexpr bool is_exact = false;                                                      \
    static constexpr bool has_infinity = (INF) != 0;                                             \
    static constexpr bool has_quiet_NaN = true;                                                  \
    static constexpr bool is_iec559 = false;                                                     \
    static constexpr int digits = DIGITS;                                                        \
    static constexpr int min_exponent = MIN_EXP;                                                 \
    static constexpr int max_exponent = MAX_EXP;                                                 \
    static constexpr T min() { return T(MIN, T::from_bits()); }                                  \
    static constexpr T lowest() { return T(LOWEST, T::from_bits()); }                            \
    static constexpr T max() { return T(MAX, T::from_bits()); }                                  \
    static constexpr T epsilon() { return T(EPSILON, T::from_bits()); }                          \
    static constexpr T infinity() { return T(INF, T::from_bits()); }                             \
    static constexpr T quiet_NaN() { return T(NAN_BITS, T::from_bits()); }                       \
  };                                                                                             \
  }  // namespace std
