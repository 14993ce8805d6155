#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/irange.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::irange(end) / c10::irange(begin, end): an integer range for range-for loops.
#include <c10/macros/Macros.h>

namespace c10 {

template <typename I>
struct integer_range {
  struct iterator {
    I value;
    constexpr C10_HOST_DEVICE I operator*() const { return value; }
    constexpr C10_HOST_DEVICE iterator& operator++() { ++value; return *this; }
    constexpr C10_HOST_DEVICE bool operator!=(const iterator& o) const { return value < o.value; }
    constexpr C10_HOST_DEVICE bool operator==(const iterator& o) const { return !(*this != o); }
  };
  I first, last;
  constexpr C10_HOST_DEVICE iterator begin() const { return {first}; }
  constexpr C10_HOST_DEVICE iterator end() const { return {last}; }
};

template <typename I1, typename I2>
constexpr C10_HOST_DEVICE integer_range<I2> irange(I1 begin, I2 end) {
  return {static_cast<I2>(begin), end < static_cast<I2>(begin) ? static_cast<I2>(begin) : end};
}
template <typename I>
constexpr C10_HOST_DEVICE integer_range<I> irange(I end) {
  return {I(0), end < I(0) ? I(0) : end};
}

}  // namespace c10
