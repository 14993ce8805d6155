#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/csrc/stable/accelerator.h>, for analysis only: it
// is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The device guard and stream of the stable ABI (declared only: nothing runs).
#include <cstdint>

#include <torch/csrc/inductor/aoti_torch/c/shim.h>

namespace torch::stable::accelerator {

using DeviceIndex = int32_t;
using StreamId = int64_t;

class DeviceGuard {
 public:
  explicit DeviceGuard(DeviceIndex device_index);
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;
  ~DeviceGuard();
  void set_index(DeviceIndex device_index);
};

class Stream {
 public:
  explicit Stream(StreamHandle stream);
  StreamId id() const;
};

Stream getCurrentStream(DeviceIndex device_index);
DeviceIndex getCurrentDeviceIndex();

}  // namespace torch::stable::accelerator
