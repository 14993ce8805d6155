#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/core/TensorOptions.h> (with Layout and
// MemoryFormat), for analysis only: it is never compiled into anything. It follows the PyTorch
// 2.x C++ API; real PyTorch headers win when kernel-lsp finds them (see
// analyzers/frontend/torch_standin/README.md).
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Optional.h>
#include <c10/util/typeid.h>

namespace c10 {

enum class Layout : int8_t { Strided, Sparse, SparseCsr, Mkldnn, SparseCsc, SparseBsr, SparseBsc, Jagged };
constexpr Layout kStrided = Layout::Strided;
constexpr Layout kSparse = Layout::Sparse;

enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };

struct TensorOptions {
  TensorOptions() = default;
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}        // NOLINT: implicit, as in PyTorch
  TensorOptions(caffe2::TypeMeta dtype) : dtype_(dtype.toScalarType()) {}  // NOLINT
  TensorOptions(Device device) : device_(device) {}         // NOLINT
  TensorOptions(DeviceType type) : device_(Device(type)) {}  // NOLINT
  TensorOptions(Layout layout) : layout_(layout) {}         // NOLINT
  TensorOptions(MemoryFormat format) : memory_format_(format) {}  // NOLINT

  TensorOptions dtype(ScalarType dtype) const { TensorOptions o = *this; o.dtype_ = dtype; return o; }
  TensorOptions dtype(caffe2::TypeMeta dtype) const { return this->dtype(dtype.toScalarType()); }
  TensorOptions dtype(optional<ScalarType> dtype) const { return dtype ? this->dtype(*dtype) : *this; }
  template <typename T>
  TensorOptions dtype() const { return dtype(CppTypeToScalarType<T>::value); }
  TensorOptions device(Device device) const { TensorOptions o = *this; o.device_ = device; return o; }
  TensorOptions device(DeviceType type, DeviceIndex index = -1) const { return device(Device(type, index)); }
  TensorOptions device_index(DeviceIndex index) const { return device(Device(DeviceType::CUDA, index)); }
  TensorOptions layout(Layout layout) const { TensorOptions o = *this; o.layout_ = layout; return o; }
  TensorOptions requires_grad(bool value) const { TensorOptions o = *this; o.requires_grad_ = value; return o; }
  TensorOptions pinned_memory(bool pinned) const { TensorOptions o = *this; o.pinned_ = pinned; return o; }
  TensorOptions memory_format(MemoryFormat format) const { TensorOptions o = *this; o.memory_format_ = format; return o; }

  caffe2::TypeMeta dtype() const { return caffe2::TypeMeta(dtype_); }
  Device device() const { return device_; }
  Layout layout() const { return layout_; }
  bool requires_grad() const { return requires_grad_; }
  bool pinned_memory() const { return pinned_; }

 private:
  ScalarType dtype_ = ScalarType::Float;
  Device device_ = Device(DeviceType::CPU);
  Layout layout_ = Layout::Strided;
  MemoryFormat memory_format_ = MemoryFormat::Contiguous;
  bool requires_grad_ = false;
  bool pinned_ = false;
};

inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
inline TensorOptions dtype(caffe2::TypeMeta dtype) { return TensorOptions().dtype(dtype); }
template <typename T>
inline TensorOptions dtype() { return TensorOptions().dtype(CppTypeToScalarType<T>::value); }
inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions device_index(DeviceIndex index) { return TensorOptions().device_index(index); }
inline TensorOptions layout(Layout layout) { return TensorOptions().layout(layout); }
inline TensorOptions requires_grad(bool value = true) { return TensorOptions().requires_grad(value); }

}  // namespace c10
