#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/core/Tensor.h> (and TensorBase.h), for analysis
// only: it is never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// at::Tensor as host code sees it: declarations only, with PyTorch's signatures where the types
// matter to the analysis: size(i) / stride(i) / numel() are int64_t, data_ptr<T>() is T*,
// packed_accessor32<T, N, Traits>() is a PackedTensorAccessor32 (int32_t sizes and strides).
#include <cstdint>
#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

#include <ATen/core/DeprecatedTypeProperties.h>
#include <ATen/core/TensorAccessor.h>
#include <c10/core/Device.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>
// As in PyTorch, where TensorBody.h includes it: code that includes only this header uses
// TORCH_CHECK.
#include <c10/util/Exception.h>
#include <c10/util/Optional.h>
#include <c10/util/typeid.h>

namespace at {

namespace indexing {
struct TensorIndex;
}  // namespace indexing

class TensorBase {
 public:
  TensorBase() = default;

  int64_t dim() const;
  int64_t ndimension() const;
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t numel() const;
  size_t nbytes() const;
  int64_t element_size() const;
  size_t itemsize() const;
  int64_t storage_offset() const;
  ScalarType scalar_type() const;
  caffe2::TypeMeta dtype() const;
  Device device() const;
  int64_t get_device() const;
  TensorOptions options() const;
  Layout layout() const;
  MemoryFormat suggest_memory_format(bool channels_last_strides_exact_match = false) const;
  bool defined() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_mps() const;
  bool is_xpu() const;
  bool is_meta() const;
  bool is_sparse() const;
  bool is_contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  bool is_non_overlapping_and_dense() const;
  bool is_floating_point() const;
  bool is_complex() const;
  bool requires_grad() const;
  size_t use_count() const noexcept;
  std::string toString() const;
  DeprecatedTypeProperties& type() const;

  void* data_ptr() const;
  template <typename T>
  T* data_ptr() const;
  const void* const_data_ptr() const;
  template <typename T>
  const T* const_data_ptr() const;
  void* mutable_data_ptr() const;
  template <typename T>
  T* mutable_data_ptr() const;

  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const&;
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
            typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const&;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
            typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() && = delete;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const&;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() && = delete;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const&;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() && = delete;
};

class Tensor : public TensorBase {
 public:
  Tensor() = default;

  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  Tensor view(IntArrayRef size) const;
  Tensor view(ScalarType dtype) const;
  Tensor view_as(const Tensor& other) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor reshape_as(const Tensor& other) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor permute(IntArrayRef dims) const;
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor expand_as(const Tensor& other) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor slice(int64_t dim = 0, optional<int64_t> start = nullopt, optional<int64_t> end = nullopt,
               int64_t step = 1) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  Tensor clone(optional<MemoryFormat> memory_format = nullopt) const;
  Tensor detach() const;
  Tensor to(TensorOptions options = {}, bool non_blocking = false, bool copy = false,
            optional<MemoryFormat> memory_format = nullopt) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false,
            optional<MemoryFormat> memory_format = nullopt) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
            optional<MemoryFormat> memory_format = nullopt) const;
  Tensor to(const Tensor& other, bool non_blocking = false, bool copy = false,
            optional<MemoryFormat> memory_format = nullopt) const;
  Tensor type_as(const Tensor& other) const;
  Tensor cuda() const;
  Tensor cpu() const;

  Tensor& zero_();
  Tensor& fill_(const Scalar& value);
  Tensor& copy_(const Tensor& src, bool non_blocking = false);
  Tensor& normal_(double mean = 0, double std = 1);
  Tensor& uniform_(double from = 0, double to = 1);
  Tensor& masked_fill_(const Tensor& mask, const Scalar& value);
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor& rhs);
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar& v);
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor index(ArrayRef<indexing::TensorIndex> indices) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  Tensor masked_select(const Tensor& mask) const;
  Tensor nonzero() const;
  Tensor any() const;
  Tensor all() const;
  Tensor operator[](int64_t index) const;
  Tensor operator[](const Tensor& index) const;

  Scalar item() const;
  template <typename T>
  T item() const;
  Tensor sum(optional<ScalarType> dtype = nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false, optional<ScalarType> dtype = nullopt) const;
  Tensor mean(optional<ScalarType> dtype = nullopt) const;
  Tensor max() const;
  Tensor min() const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> sort(optional<bool> stable, int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true, bool sorted = true) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  Tensor cumsum(int64_t dim, optional<ScalarType> dtype = nullopt) const;
  Tensor abs() const;
  Tensor sqrt() const;
  Tensor exp() const;
  Tensor pow(const Scalar& exponent) const;
  Tensor add(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor& add_(const Tensor& other, const Scalar& alpha = 1);
  Tensor mul(const Tensor& other) const;
  Tensor& mul_(const Tensor& other);
  Tensor& mul_(const Scalar& other);
  Tensor div(const Tensor& other) const;
  Tensor& div_(const Tensor& other);
  Tensor sub(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor& sub_(const Tensor& other, const Scalar& alpha = 1);
  Tensor& operator+=(const Tensor& other);
  Tensor& operator+=(const Scalar& other);
  Tensor& operator-=(const Tensor& other);
  Tensor& operator*=(const Tensor& other);
  Tensor& operator*=(const Scalar& other);
  Tensor& operator/=(const Tensor& other);
  Tensor& operator/=(const Scalar& other);
  Tensor operator-() const;
};

Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Scalar& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Scalar& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Scalar& b);
Tensor operator*(const Scalar& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Scalar& b);
Tensor operator==(const Tensor& a, const Scalar& b);
Tensor operator!=(const Tensor& a, const Scalar& b);

using TensorList = ArrayRef<Tensor>;

}  // namespace at
