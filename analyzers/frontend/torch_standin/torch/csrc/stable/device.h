#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/csrc/stable/device.h>, for analysis only: it is
// never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// torch::stable::Device: a device type and a 32-bit index (the stable ABI's index type).
#include <cstdint>

#include <torch/headeronly/core/DeviceType.h>

namespace torch::stable {

using DeviceIndex = int32_t;
using torch::headeronly::DeviceType;

class Device {
 public:
  Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {}  // NOLINT: implicit, as in PyTorch

  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  void set_index(DeviceIndex index) { index_ = index; }
  bool operator==(const Device& other) const noexcept { return type_ == other.type_ && index_ == other.index_; }
  bool operator!=(const Device& other) const noexcept { return !(*this == other); }

 private:
  DeviceType type_;
  DeviceIndex index_;
};

}  // namespace torch::stable
