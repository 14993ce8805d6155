#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/util/HeaderOnlyArrayRef.h>, for analysis
// only: it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real
// PyTorch headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// HeaderOnlyArrayRef<T>: the stable ABI's non-owning view of contiguous Ts, which shapes are
// passed as ({m, n}, a std::vector, t.sizes()); IntHeaderOnlyArrayRef is the int64_t one. The
// same constructors as c10::ArrayRef (c10/util/ArrayRef.h here), so the same calls convert.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace torch::headeronly {

template <typename T>
class HeaderOnlyArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;

  constexpr HeaderOnlyArrayRef() = default;
  constexpr HeaderOnlyArrayRef(const T& one) : data_(&one), size_(1) {}  // NOLINT: implicit, as in PyTorch
  constexpr HeaderOnlyArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  constexpr HeaderOnlyArrayRef(const T* begin, const T* end) : data_(begin), size_(end - begin) {}
  template <typename A>
  HeaderOnlyArrayRef(const std::vector<T, A>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT
  template <size_t N>
  constexpr HeaderOnlyArrayRef(const std::array<T, N>& a) : data_(a.data()), size_(N) {}  // NOLINT
  template <size_t N>
  constexpr HeaderOnlyArrayRef(const T (&a)[N]) : data_(a), size_(N) {}  // NOLINT
  constexpr HeaderOnlyArrayRef(const std::initializer_list<T>& list)  // NOLINT
      : data_(list.begin() == list.end() ? nullptr : list.begin()), size_(list.size()) {}

  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& front() const { return data_[0]; }
  constexpr const T& back() const { return data_[size_ - 1]; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  std::vector<T> vec() const { return std::vector<T>(data_, data_ + size_); }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

using IntHeaderOnlyArrayRef = HeaderOnlyArrayRef<int64_t>;

}  // namespace torch::headeronly
