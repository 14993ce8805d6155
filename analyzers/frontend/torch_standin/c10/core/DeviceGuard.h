#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/core/DeviceGuard.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <c10/core/Device.h>
#include <c10/util/Optional.h>

namespace c10 {

class DeviceGuard {
 public:
  explicit DeviceGuard(Device device);
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;
  ~DeviceGuard();
  void set_device(Device device);
  void reset_device(Device device);
  Device original_device() const;
  Device current_device() const;
};

class OptionalDeviceGuard {
 public:
  OptionalDeviceGuard();
  explicit OptionalDeviceGuard(Device device);
  explicit OptionalDeviceGuard(optional<Device> device);
  OptionalDeviceGuard(const OptionalDeviceGuard&) = delete;
  OptionalDeviceGuard& operator=(const OptionalDeviceGuard&) = delete;
  ~OptionalDeviceGuard();
  void reset_device(Device device);
  void reset();
};

}  // namespace c10
