#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/C++17.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// Only the standard headers it brings in. c10/util/Half.h and c10/util/Exception.h include it in
// PyTorch, and kernel files rely on what it makes visible without including it themselves:
// Mamba's and causal-conv1d's `std::max({a, b})` (the initializer_list overload, <algorithm>,
// which libstdc++'s <functional> brings) is a clang error in every kernel traits class without it.
#include <cstdlib>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
