#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/Optional.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API (where c10::optional is
// std::optional); real PyTorch headers win when kernel-lsp finds them (see
// analyzers/frontend/torch_standin/README.md).
#include <optional>

namespace c10 {
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
}  // namespace c10
