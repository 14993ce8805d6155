#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/Functions.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The factory and utility functions kernel wrappers call to make their outputs; declarations.
#include <ATen/core/Tensor.h>

namespace at {

Tensor empty(IntArrayRef size, TensorOptions options = {}, optional<MemoryFormat> memory_format = nullopt);
Tensor empty_like(const Tensor& self, TensorOptions options = {}, optional<MemoryFormat> memory_format = nullopt);
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options = {});
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor zeros_like(const Tensor& self, TensorOptions options = {}, optional<MemoryFormat> memory_format = nullopt);
Tensor ones(IntArrayRef size, TensorOptions options = {});
Tensor ones_like(const Tensor& self, TensorOptions options = {}, optional<MemoryFormat> memory_format = nullopt);
Tensor full(IntArrayRef size, const Scalar& fill_value, TensorOptions options = {});
Tensor full_like(const Tensor& self, const Scalar& fill_value, TensorOptions options = {},
                 optional<MemoryFormat> memory_format = nullopt);
Tensor rand(IntArrayRef size, TensorOptions options = {});
Tensor randn(IntArrayRef size, TensorOptions options = {});
Tensor randint(int64_t high, IntArrayRef size, TensorOptions options = {});
Tensor randint(int64_t low, int64_t high, IntArrayRef size, TensorOptions options = {});
Tensor arange(const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options = {});
Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {});
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options = {});
Tensor cat(TensorList tensors, int64_t dim = 0);
Tensor stack(TensorList tensors, int64_t dim = 0);
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor softmax(const Tensor& self, int64_t dim, optional<ScalarType> dtype = nullopt);
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim = false, optional<ScalarType> dtype = nullopt);
Tensor& sum_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false,
                optional<ScalarType> dtype = nullopt);
Tensor sigmoid(const Tensor& self);
Tensor relu(const Tensor& self);
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);

}  // namespace at
