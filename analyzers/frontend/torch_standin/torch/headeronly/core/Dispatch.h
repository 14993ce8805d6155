#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/core/Dispatch.h>, for analysis only: it
// is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The header-only dispatch macros, shaped as ATen's (ATen/Dispatch.h in this folder):
// THO_DISPATCH_SWITCH(TYPE, NAME, cases...) is an immediately called lambda holding a switch
// over the dtype; each THO_DISPATCH_CASE(dtype, lambda) binds `scalar_t` (the _USING_HINT form
// another name) to the dtype's C++ type and calls the lambda, so every kernel template the
// lambda launches is instantiated once per dtype, as with the real headers.
#include <torch/headeronly/core/ScalarType.h>

namespace torch::headeronly::detail {
[[noreturn]] void dispatch_unsupported(const char* name, ScalarType t);
}  // namespace torch::headeronly::detail

#define THO_DISPATCH_SWITCH(TYPE, NAME, ...)                                             \
  [&] {                                                                                  \
    const ::torch::headeronly::ScalarType kernel_lsp_dtype = TYPE;                       \
    [[maybe_unused]] constexpr const char* tho_dispatch_name = NAME;                     \
    switch (kernel_lsp_dtype) {                                                          \
      __VA_ARGS__                                                                        \
      default:                                                                           \
        ::torch::headeronly::detail::dispatch_unsupported(tho_dispatch_name, kernel_lsp_dtype); \
    }                                                                                    \
  }()

#define THO_PRIVATE_CASE_TYPE_USING_HINT(enum_type, HINT, ...)                           \
  case enum_type: {                                                                      \
    using HINT [[maybe_unused]] = ::torch::headeronly::ScalarTypeToCPPTypeT<enum_type>;  \
    return __VA_ARGS__();                                                                \
  }
#define THO_DISPATCH_CASE(enum_type, ...) THO_PRIVATE_CASE_TYPE_USING_HINT(enum_type, scalar_t, __VA_ARGS__)
