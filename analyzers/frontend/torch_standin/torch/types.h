#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/types.h>, for analysis only: it is never compiled
// into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when kernel-lsp
// finds them (see analyzers/frontend/torch_standin/README.md).
//
// torch:: sees every at:: name (torch::Tensor, torch::empty), plus the fixed-width dtype names.
#include <ATen/ATen.h>
#include <c10/util/Optional.h>
#include <torch/library.h>

namespace torch {
using namespace at;  // NOLINT: PyTorch exposes at:: in torch:: this way

using c10::nullopt;
using c10::optional;
using Dtype = at::ScalarType;

constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kUInt16 = at::kUInt16;
constexpr auto kUInt32 = at::kUInt32;
constexpr auto kUInt64 = at::kUInt64;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;
constexpr auto kU8 = kUInt8;
constexpr auto kI8 = kInt8;
constexpr auto kI16 = kInt16;
constexpr auto kI32 = kInt32;
constexpr auto kI64 = kInt64;
constexpr auto kF16 = kFloat16;
constexpr auto kF32 = kFloat32;
constexpr auto kF64 = kFloat64;
}  // namespace torch
