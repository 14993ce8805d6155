#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/util/HeaderOnlyArrayRef.h>, for analysis
// only: it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real
// PyTorch headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// HeaderOnlyArrayRef<T>: the stable ABI's non-owning view of contiguous Ts, which shapes are
// passed as ({m, n}, a std::vector, t.sizes()); IntHeaderOnlyArrayRef is the int64_t one. PyTorch
// builds c10::ArrayRef on it with the same constructors; here the two are one type, so the same
// calls convert and the view is written once (c10/util/ArrayRef.h).
#include <cstdint>

#include "c10/util/ArrayRef.h"

namespace torch::headeronly {

template <typename T>
using HeaderOnlyArrayRef = c10::ArrayRef<T>;

using IntHeaderOnlyArrayRef = HeaderOnlyArrayRef<int64_t>;

}  // namespace torch::headeronly
