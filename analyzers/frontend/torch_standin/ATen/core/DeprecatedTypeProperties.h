#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/core/DeprecatedTypeProperties.h>, for analysis
// only: it is never compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// What the deprecated Tensor::type() returns; old kernels still pass it to AT_DISPATCH.
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>

namespace at {

class DeprecatedTypeProperties {
 public:
  ScalarType scalarType() const;
  caffe2::TypeMeta typeMeta() const;
  bool is_cuda() const;
  bool is_sparse() const;
  const char* toString() const;
  TensorOptions options(int16_t device_index = -1) const;
  bool operator==(const DeprecatedTypeProperties& other) const;
  bool operator!=(const DeprecatedTypeProperties& other) const;
};

}  // namespace at
