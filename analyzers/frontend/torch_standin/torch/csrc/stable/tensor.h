#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/csrc/stable/tensor.h>, for analysis only: it is
// never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// torch::stable::Tensor: a handle to an ATen tensor through the C shim, with the methods
// kernel files call on the host side (declared only). data_ptr() is untyped, as in PyTorch:
// files cast it to the element type bound by a THO_DISPATCH case; mutable_data_ptr<T>() and
// const_data_ptr<T>() are the typed forms. Sizes, strides and numel are int64_t.
#include <cstddef>
#include <cstdint>
#include <memory>

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/device.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/HeaderOnlyArrayRef.h>
#include <torch/headeronly/util/shim_utils.h>

namespace torch::stable {

class Tensor {
 public:
  Tensor();
  explicit Tensor(AtenTensorHandle handle);

  AtenTensorHandle get() const;

  void* data_ptr() const;
  void* mutable_data_ptr() const;
  const void* const_data_ptr() const;
  template <typename T>
  T* mutable_data_ptr() const;
  template <typename T>
  const T* const_data_ptr() const;

  int64_t dim() const;
  int64_t numel() const;
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  torch::headeronly::IntHeaderOnlyArrayRef sizes() const;
  torch::headeronly::IntHeaderOnlyArrayRef strides() const;
  int64_t storage_offset() const;
  size_t element_size() const;
  bool is_contiguous() const;
  bool defined() const;

  torch::headeronly::ScalarType scalar_type() const;
  torch::headeronly::Layout layout() const;
  Device device() const;
  DeviceIndex get_device() const;
  int32_t get_device_index() const;
  bool is_cuda() const;
  bool is_cpu() const;

  const Tensor& set_requires_grad(bool requires_grad) const;

 private:
  std::shared_ptr<AtenTensorOpaque> handle_;
};

}  // namespace torch::stable
