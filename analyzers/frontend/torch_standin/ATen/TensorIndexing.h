#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/TensorIndexing.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// x.index({Slice(), 0}) and its index kinds. (torch::indexing::Slice reaches these through
// torch/types.h's `using namespace at`, as in PyTorch: no torch::indexing namespace is declared,
// so a project's own `namespace indexing = at::indexing;` inside torch:: still compiles.)
#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace at::indexing {

struct EllipsisIndexType {};
constexpr EllipsisIndexType Ellipsis;
constexpr nullopt_t None = nullopt;

class Slice {
 public:
  Slice(optional<int64_t> start = nullopt, optional<int64_t> stop = nullopt,  // NOLINT
        optional<int64_t> step = nullopt);
  int64_t start() const;
  int64_t stop() const;
  int64_t step() const;
};

struct TensorIndex {
  TensorIndex(nullopt_t);               // NOLINT: implicit, as in PyTorch
  TensorIndex(EllipsisIndexType);       // NOLINT
  TensorIndex(const char* ellipsis);    // NOLINT: "..."
  TensorIndex(int64_t integer);         // NOLINT
  TensorIndex(int integer);             // NOLINT
  TensorIndex(bool boolean);            // NOLINT
  TensorIndex(Slice slice);             // NOLINT
  TensorIndex(Tensor tensor);           // NOLINT
};

}  // namespace at::indexing
