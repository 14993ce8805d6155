#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/cuda/CUDAStream.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// c10::cuda::CUDAStream converts to cudaStream_t, so `k<<<g, b, 0, stream>>>` with
// `auto stream = at::cuda::getCurrentCUDAStream();` is a launch as the analysis sees it.
#include <cuda_runtime_api.h>

#include <c10/core/Device.h>
#include <c10/cuda/CUDAFunctions.h>

namespace c10 {

class Stream {
 public:
  Device device() const;
  DeviceIndex device_index() const;
  DeviceType device_type() const;
  int64_t id() const;
};

namespace cuda {

class CUDAStream {
 public:
  enum Unchecked { UNCHECKED };
  explicit CUDAStream(Stream stream);
  CUDAStream(Unchecked, Stream stream);

  operator cudaStream_t() const { return stream(); }  // NOLINT: implicit, as in PyTorch
  operator Stream() const { return unwrap(); }        // NOLINT
  cudaStream_t stream() const;
  Stream unwrap() const;
  DeviceIndex device_index() const;
  Device device() const;
  DeviceType device_type() const { return DeviceType::CUDA; }
  int64_t id() const;
  int priority() const;
  bool query() const;
  void synchronize() const;
  bool operator==(const CUDAStream& other) const noexcept;
  bool operator!=(const CUDAStream& other) const noexcept;
};

CUDAStream getStreamFromPool(const bool isHighPriority = false, DeviceIndex device = -1);
CUDAStream getStreamFromPool(const int priority, DeviceIndex device = -1);
CUDAStream getStreamFromExternal(cudaStream_t ext_stream, DeviceIndex device_index);
CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
void setCurrentCUDAStream(CUDAStream stream);

}  // namespace cuda
}  // namespace c10
