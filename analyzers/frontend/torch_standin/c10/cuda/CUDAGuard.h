#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/cuda/CUDAGuard.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The RAII guards that make a tensor's device current (at::cuda::OptionalCUDAGuard is this
// c10::cuda one, through Macros.h's namespace re-export).
#include <c10/core/Device.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/util/Optional.h>

namespace c10::cuda {

struct CUDAGuard {
  explicit CUDAGuard(DeviceIndex device_index);
  explicit CUDAGuard(Device device);
  CUDAGuard(const CUDAGuard&) = delete;
  CUDAGuard& operator=(const CUDAGuard&) = delete;
  ~CUDAGuard();
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
  Device original_device() const;
  Device current_device() const;
};

struct OptionalCUDAGuard {
  OptionalCUDAGuard();
  explicit OptionalCUDAGuard(optional<Device> device_opt);
  explicit OptionalCUDAGuard(optional<DeviceIndex> device_index_opt);
  OptionalCUDAGuard(const OptionalCUDAGuard&) = delete;
  OptionalCUDAGuard& operator=(const OptionalCUDAGuard&) = delete;
  ~OptionalCUDAGuard();
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
  optional<Device> original_device() const;
  optional<Device> current_device() const;
  void reset();
};

struct CUDAStreamGuard {
  explicit CUDAStreamGuard(Stream stream);
  CUDAStreamGuard(const CUDAStreamGuard&) = delete;
  CUDAStreamGuard& operator=(const CUDAStreamGuard&) = delete;
  ~CUDAStreamGuard();
  CUDAStream original_stream() const;
  CUDAStream current_stream() const;
};

struct OptionalCUDAStreamGuard {
  OptionalCUDAStreamGuard();
  explicit OptionalCUDAStreamGuard(Stream stream);
  explicit OptionalCUDAStreamGuard(optional<Stream> stream_opt);
  ~OptionalCUDAStreamGuard();
};

}  // namespace c10::cuda
