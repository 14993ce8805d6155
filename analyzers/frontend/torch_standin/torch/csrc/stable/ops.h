#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/csrc/stable/ops.h>, for analysis only: it is never
// compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real PyTorch headers
// win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The tensor operations the stable ABI offers on the host side, with PyTorch's argument order
// and defaults (declared only: the analysis needs their types, not their work).
#include <cstdint>
#include <optional>
#include <string>

#include <torch/csrc/stable/device.h>
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

namespace torch::stable {

using torch::headeronly::IntHeaderOnlyArrayRef;

Tensor empty(IntHeaderOnlyArrayRef size, std::optional<torch::headeronly::ScalarType> dtype = std::nullopt,
             std::optional<torch::headeronly::Layout> layout = std::nullopt,
             std::optional<Device> device = std::nullopt, std::optional<bool> pin_memory = std::nullopt,
             std::optional<torch::headeronly::MemoryFormat> memory_format = std::nullopt);
Tensor empty_like(const Tensor& self);
Tensor new_empty(const Tensor& self, IntHeaderOnlyArrayRef size,
                 std::optional<torch::headeronly::ScalarType> dtype = std::nullopt,
                 std::optional<torch::headeronly::Layout> layout = std::nullopt,
                 std::optional<Device> device = std::nullopt, std::optional<bool> pin_memory = std::nullopt);
Tensor new_zeros(const Tensor& self, IntHeaderOnlyArrayRef size,
                 std::optional<torch::headeronly::ScalarType> dtype = std::nullopt,
                 std::optional<torch::headeronly::Layout> layout = std::nullopt,
                 std::optional<Device> device = std::nullopt, std::optional<bool> pin_memory = std::nullopt);

Tensor fill_(const Tensor& self, double value);
Tensor zero_(Tensor& self);
Tensor copy_(Tensor& self, const Tensor& src, std::optional<bool> non_blocking = std::nullopt);
Tensor clone(const Tensor& self);
Tensor contiguous(const Tensor& self,
                  torch::headeronly::MemoryFormat memory_format = torch::headeronly::MemoryFormat::Contiguous);
Tensor to(const Tensor& self, std::optional<Device> device = std::nullopt, bool non_blocking = false,
          bool copy = false);

Tensor narrow(Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor reshape(const Tensor& self, IntHeaderOnlyArrayRef shape);
Tensor view(const Tensor& self, IntHeaderOnlyArrayRef size);
Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor pad(const Tensor& self, IntHeaderOnlyArrayRef pad, const std::string& mode = "constant", double value = 0.0);

Tensor amax(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor amax(const Tensor& self, IntHeaderOnlyArrayRef dims, bool keepdim = false);
Tensor sum(const Tensor& self, std::optional<IntHeaderOnlyArrayRef> dim = std::nullopt, bool keepdim = false,
           std::optional<torch::headeronly::ScalarType> dtype = std::nullopt);
void sum_out(Tensor& out, const Tensor& self, std::optional<IntHeaderOnlyArrayRef> dim = std::nullopt,
             bool keepdim = false, std::optional<torch::headeronly::ScalarType> dtype = std::nullopt);
Tensor subtract(const Tensor& self, const Tensor& other, double alpha = 1.0);
Tensor matmul(const Tensor& self, const Tensor& other);

}  // namespace torch::stable
