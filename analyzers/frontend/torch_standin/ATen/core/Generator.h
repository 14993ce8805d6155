#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/core/Generator.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
#include <mutex>

#include <c10/core/Device.h>
#include <c10/util/Optional.h>

namespace at {

class Generator {
 public:
  Generator() = default;
  template <typename T>
  T* get() const;
  std::mutex& mutex();
  Device device() const;
  uint64_t current_seed() const;
  bool defined() const;
};

template <typename T>
T* get_generator_or_default(const optional<Generator>& gen, const Generator& default_gen);

}  // namespace at
