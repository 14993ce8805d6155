#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/ArrayRef.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::ArrayRef<T>: a non-owning view of contiguous Ts (sizes, strides); IntArrayRef is the
// int64_t one that tensor shapes are passed as ({n, d}, a std::vector, x.sizes()).
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace c10 {

template <typename T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}  // NOLINT: implicit, as in PyTorch
  constexpr ArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  constexpr ArrayRef(const T* begin, const T* end) : data_(begin), size_(end - begin) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N>& a) : data_(a.data()), size_(N) {}  // NOLINT
  template <size_t N>
  constexpr ArrayRef(const T (&a)[N]) : data_(a), size_(N) {}  // NOLINT
  constexpr ArrayRef(const std::initializer_list<T>& list)  // NOLINT
      : data_(list.begin() == list.end() ? nullptr : list.begin()), size_(list.size()) {}

  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& front() const { return data_[0]; }
  constexpr const T& back() const { return data_[size_ - 1]; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  const T& at(size_t i) const { return data_[i]; }
  constexpr ArrayRef slice(size_t start, size_t count) const { return ArrayRef(data_ + start, count); }
  constexpr ArrayRef slice(size_t start) const { return ArrayRef(data_ + start, size_ - start); }
  std::vector<T> vec() const { return std::vector<T>(data_, data_ + size_); }
  bool equals(ArrayRef other) const {
    if (size_ != other.size_) return false;
    for (size_t i = 0; i < size_; ++i)
      if (!(data_[i] == other.data_[i])) return false;
    return true;
  }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b) { return a.equals(b); }
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b) { return !a.equals(b); }

using IntArrayRef = ArrayRef<int64_t>;

}  // namespace c10
