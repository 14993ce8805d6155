#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/core/TensorAccessor.h>, for analysis only: it is
// never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win
// when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// Accessors with PyTorch's layouts: a TensorAccessor points at its data and at sizes and
// strides held elsewhere; a (Generic)PackedTensorAccessor carries its sizes and strides by value
// (so it can be a kernel argument). acc[i] on an N-d accessor is the (N-1)-d view i strides in;
// on a 1-d one, the element. Index types: int32_t for the *32 accessors, int64_t otherwise.
#include <cstddef>
#include <cstdint>

#include <c10/macros/Macros.h>

namespace at {

template <typename T>
struct DefaultPtrTraits {
  typedef T* PtrType;
};
template <typename T>
struct RestrictPtrTraits {
  typedef T* __restrict__ PtrType;
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  C10_HOST_DEVICE TensorAccessorBase(PtrType data, const index_t* sizes, const index_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE PtrType data() { return data_; }
  C10_HOST_DEVICE const PtrType data() const { return data_; }

 protected:
  PtrType data_;
  const index_t* sizes_;
  const index_t* strides_;
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  using Base = TensorAccessorBase<T, N, PtrTraits, index_t>;
  using typename Base::PtrType;
  using Base::Base;
  C10_HOST_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                        this->sizes_ + 1, this->strides_ + 1);
  }
  C10_HOST_DEVICE const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                        this->sizes_ + 1, this->strides_ + 1);
  }
};

template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> : public TensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  using Base = TensorAccessorBase<T, 1, PtrTraits, index_t>;
  using Base::Base;
  C10_HOST_DEVICE T& operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  C10_HOST_DEVICE const T& operator[](index_t i) const { return this->data_[this->strides_[0] * i]; }
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  C10_HOST GenericPackedTensorAccessorBase(PtrType data, const index_t* sizes, const index_t* strides)
      : data_(data) {
    for (size_t i = 0; i < N; ++i) {
      sizes_[i] = sizes[i];
      strides_[i] = strides[i];
    }
  }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE PtrType data() { return data_; }
  C10_HOST_DEVICE const PtrType data() const { return data_; }

 protected:
  PtrType data_;
  index_t sizes_[N];
  index_t strides_[N];
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
class GenericPackedTensorAccessor : public GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  using Base = GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t>;
  using typename Base::PtrType;
  using Base::Base;
  C10_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                        this->sizes_ + 1, this->strides_ + 1);
  }
  C10_DEVICE const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i,
                                                        this->sizes_ + 1, this->strides_ + 1);
  }
};

template <typename T, template <typename U> class PtrTraits, typename index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t>
    : public GenericPackedTensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  using Base = GenericPackedTensorAccessorBase<T, 1, PtrTraits, index_t>;
  using Base::Base;
  C10_DEVICE T& operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  C10_DEVICE const T& operator[](index_t i) const { return this->data_[this->strides_[0] * i]; }
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;

}  // namespace at
