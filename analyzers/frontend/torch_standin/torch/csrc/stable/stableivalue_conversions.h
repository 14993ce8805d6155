#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/csrc/stable/stableivalue_conversions.h>, for
// analysis only: it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and
// later); real PyTorch headers win when kernel-lsp finds them (see
// analyzers/frontend/torch_standin/README.md).
//
// StableIValue, the 64-bit slot a boxed kernel's arguments and results travel in, and the
// conversions to and from it (declared only).
#include <cstdint>

using StableIValue = uint64_t;

namespace torch::stable::detail {

template <typename T>
T to(StableIValue value);
template <typename T>
StableIValue from(T value);

}  // namespace torch::stable::detail
