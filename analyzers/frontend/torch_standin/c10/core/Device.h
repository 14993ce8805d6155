#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/core/Device.h> (and DeviceType.h), for analysis
// only: it is never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <cstdint>
#include <string>

#include <c10/macros/Macros.h>

namespace c10 {

enum class DeviceType : int8_t {
  CPU = 0, CUDA = 1, MKLDNN = 2, OPENGL = 3, OPENCL = 4, IDEEP = 5, HIP = 6, FPGA = 7,
  MAIA = 8, XLA = 9, Vulkan = 10, Metal = 11, XPU = 12, MPS = 13, Meta = 14, HPU = 15,
  VE = 16, Lazy = 17, IPU = 18, MTIA = 19, PrivateUse1 = 20,
};
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kXPU = DeviceType::XPU;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kMeta = DeviceType::Meta;

using DeviceIndex = int8_t;

struct Device {
  Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {}  // NOLINT
  Device(const std::string& description);  // NOLINT: "cuda:0", as in PyTorch
  Device(const char* description) : Device(std::string(description)) {}  // NOLINT

  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_mps() const noexcept { return type_ == DeviceType::MPS; }
  bool is_xpu() const noexcept { return type_ == DeviceType::XPU; }
  bool is_meta() const noexcept { return type_ == DeviceType::Meta; }
  void set_index(DeviceIndex index) { index_ = index; }
  std::string str() const;
  bool operator==(const Device& o) const noexcept { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const noexcept { return !(*this == o); }

 private:
  DeviceType type_;
  DeviceIndex index_ = -1;
};

}  // namespace c10
