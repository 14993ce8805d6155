#pragma once
// kernel-lsp's stand-in for PyTorch's <ATen/Dispatch.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The AT_DISPATCH_* macros expand, at the user's call, to an immediately called lambda holding
// a switch over the dtype with one case per dtype of the macro's set (the same sets as
// PyTorch's); each case binds `scalar_t` (or `index_t`) to that dtype's C++ type and calls the
// user's lambda. So clang instantiates every kernel template the lambda launches once per
// dtype, with the true element sizes, exactly as PyTorch's own expansion does.
//   AT_DISPATCH_SWITCH(TYPE, NAME, cases...) with AT_DISPATCH_CASE(dtype, lambda) and the
//   AT_DISPATCH_CASE_<SET>(lambda) lists; AT_DISPATCH_<SET>[_ANDn](extra dtypes..., TYPE, NAME,
//   lambda). Not modelled: quantized and bit types, AT_DISPATCH_V2.
#include <ATen/core/DeprecatedTypeProperties.h>
#include <c10/core/ScalarType.h>
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>

namespace at::detail {
inline ScalarType dispatch_scalar_type(ScalarType t) { return t; }
// Deprecated in PyTorch too: AT_DISPATCH over `x.type()`.
inline ScalarType dispatch_scalar_type(const DeprecatedTypeProperties& t) { return t.scalarType(); }
[[noreturn]] void dispatch_unsupported(const char* name, ScalarType t);
}  // namespace at::detail

#define AT_DISPATCH_SWITCH(TYPE, NAME, ...)                                                   \
  [&] {                                                                                       \
    const auto& kernel_lsp_dispatch_type = TYPE;                                              \
    [[maybe_unused]] constexpr const char* at_dispatch_name = NAME;                           \
    const ::at::ScalarType kernel_lsp_dtype =                                                 \
        ::at::detail::dispatch_scalar_type(kernel_lsp_dispatch_type);                         \
    switch (kernel_lsp_dtype) {                                                               \
      __VA_ARGS__                                                                             \
      default:                                                                                \
        ::at::detail::dispatch_unsupported(at_dispatch_name, kernel_lsp_dtype);               \
    }                                                                                         \
  }()

#define AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, HINT, ...)                    \
  case enum_type: {                                                              \
    using HINT [[maybe_unused]] = ::c10::impl::ScalarTypeToCPPTypeT<enum_type>;  \
    return __VA_ARGS__();                                                        \
  }
#define AT_DISPATCH_CASE(enum_type, ...) AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, scalar_t, __VA_ARGS__)

// A set's cases followed by n extra dtypes' (BASE is an AT_DISPATCH_CASE_<SET> macro).
#define KERNEL_LSP_AT_AND1(BASE, A, ...) BASE(__VA_ARGS__) AT_DISPATCH_CASE(A, __VA_ARGS__)
#define KERNEL_LSP_AT_AND2(BASE, A, B, ...) KERNEL_LSP_AT_AND1(BASE, A, __VA_ARGS__) AT_DISPATCH_CASE(B, __VA_ARGS__)
#define KERNEL_LSP_AT_AND3(BASE, A, B, C, ...) KERNEL_LSP_AT_AND2(BASE, A, B, __VA_ARGS__) AT_DISPATCH_CASE(C, __VA_ARGS__)
#define KERNEL_LSP_AT_AND4(BASE, A, B, C, D, ...) KERNEL_LSP_AT_AND3(BASE, A, B, C, __VA_ARGS__) AT_DISPATCH_CASE(D, __VA_ARGS__)
#define KERNEL_LSP_AT_AND5(BASE, A, B, C, D, E, ...) KERNEL_LSP_AT_AND4(BASE, A, B, C, D, __VA_ARGS__) AT_DISPATCH_CASE(E, __VA_ARGS__)
#define KERNEL_LSP_AT_AND6(BASE, A, B, C, D, E, F, ...) KERNEL_LSP_AT_AND5(BASE, A, B, C, D, E, __VA_ARGS__) AT_DISPATCH_CASE(F, __VA_ARGS__)
#define KERNEL_LSP_AT_AND7(BASE, A, B, C, D, E, F, G, ...) KERNEL_LSP_AT_AND6(BASE, A, B, C, D, E, F, __VA_ARGS__) AT_DISPATCH_CASE(G, __VA_ARGS__)
#define KERNEL_LSP_AT_AND8(BASE, A, B, C, D, E, F, G, H, ...) KERNEL_LSP_AT_AND7(BASE, A, B, C, D, E, F, G, __VA_ARGS__) AT_DISPATCH_CASE(H, __VA_ARGS__)

// ---- The sets, in PyTorch's case order.
#define AT_DISPATCH_CASE_FLOATING_TYPES(...) \
  AT_DISPATCH_CASE(at::ScalarType::Double, __VA_ARGS__) AT_DISPATCH_CASE(at::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(...) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(at::ScalarType::Half, __VA_ARGS__)
#define AT_DISPATCH_CASE_REDUCED_FLOATING_TYPES(...) \
  AT_DISPATCH_CASE(at::ScalarType::Half, __VA_ARGS__) AT_DISPATCH_CASE(at::ScalarType::BFloat16, __VA_ARGS__)
#define AT_DISPATCH_CASE_COMPLEX_TYPES(...)                  \
  AT_DISPATCH_CASE(at::ScalarType::ComplexDouble, __VA_ARGS__) \
  AT_DISPATCH_CASE(at::ScalarType::ComplexFloat, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES(...) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__)
#define AT_DISPATCH_CASE_INTEGRAL_TYPES(...)                                                \
  AT_DISPATCH_CASE(at::ScalarType::Byte, __VA_ARGS__) AT_DISPATCH_CASE(at::ScalarType::Char, __VA_ARGS__) \
  AT_DISPATCH_CASE(at::ScalarType::Int, __VA_ARGS__) AT_DISPATCH_CASE(at::ScalarType::Long, __VA_ARGS__)  \
  AT_DISPATCH_CASE(at::ScalarType::Short, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES(...) \
  AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX(...) \
  AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__)

// ---- Sets with extra dtypes: the case lists.
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND(A, ...) KERNEL_LSP_AT_AND1(AT_DISPATCH_CASE_FLOATING_TYPES, A, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND2(A, B, ...) KERNEL_LSP_AT_AND2(AT_DISPATCH_CASE_FLOATING_TYPES, A, B, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND3(A, B, C, ...) KERNEL_LSP_AT_AND3(AT_DISPATCH_CASE_FLOATING_TYPES, A, B, C, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND4(A, B, C, D, ...) KERNEL_LSP_AT_AND4(AT_DISPATCH_CASE_FLOATING_TYPES, A, B, C, D, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND5(A, B, C, D, E, ...) KERNEL_LSP_AT_AND5(AT_DISPATCH_CASE_FLOATING_TYPES, A, B, C, D, E, __VA_ARGS__)
#define AT_DISPATCH_CASE_COMPLEX_TYPES_AND(A, ...) KERNEL_LSP_AT_AND1(AT_DISPATCH_CASE_COMPLEX_TYPES, A, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND1(A, ...) KERNEL_LSP_AT_AND1(AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES, A, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND2(A, B, ...) KERNEL_LSP_AT_AND2(AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES, A, B, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND3(A, B, C, ...) KERNEL_LSP_AT_AND3(AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES, A, B, C, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND4(A, B, C, D, ...) KERNEL_LSP_AT_AND4(AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES, A, B, C, D, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND5(A, B, C, D, E, ...) KERNEL_LSP_AT_AND5(AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES, A, B, C, D, E, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND6(A, B, C, D, E, F, ...) KERNEL_LSP_AT_AND6(AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES, A, B, C, D, E, F, __VA_ARGS__)
#define AT_DISPATCH_CASE_INTEGRAL_TYPES_AND(A, ...) KERNEL_LSP_AT_AND1(AT_DISPATCH_CASE_INTEGRAL_TYPES, A, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND(A, ...) KERNEL_LSP_AT_AND1(AT_DISPATCH_CASE_ALL_TYPES, A, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND2(A, B, ...) KERNEL_LSP_AT_AND2(AT_DISPATCH_CASE_ALL_TYPES, A, B, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND3(A, B, C, ...) KERNEL_LSP_AT_AND3(AT_DISPATCH_CASE_ALL_TYPES, A, B, C, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND(A, ...) KERNEL_LSP_AT_AND1(AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX, A, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND2(A, B, ...) KERNEL_LSP_AT_AND2(AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX, A, B, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND3(A, B, C, ...) KERNEL_LSP_AT_AND3(AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX, A, B, C, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND4(A, B, C, D, ...) KERNEL_LSP_AT_AND4(AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX, A, B, C, D, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND5(A, B, C, D, E, ...) KERNEL_LSP_AT_AND5(AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX, A, B, C, D, E, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND6(A, B, C, D, E, F, ...) KERNEL_LSP_AT_AND6(AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX, A, B, C, D, E, F, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND7(A, B, C, D, E, F, G, ...) KERNEL_LSP_AT_AND7(AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX, A, B, C, D, E, F, G, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND8(A, B, C, D, E, F, G, H, ...) KERNEL_LSP_AT_AND8(AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX, A, B, C, D, E, F, G, H, __VA_ARGS__)

// ---- The dispatches: AT_DISPATCH_<SET>[_ANDn](extra dtypes..., TYPE, NAME, lambda).
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(__VA_ARGS__))
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_REDUCED_FLOATING_TYPES(__VA_ARGS__))
#define AT_DISPATCH_COMPLEX_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX(TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX(__VA_ARGS__))

#define AT_DISPATCH_FLOATING_TYPES_AND(A, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES_AND(A, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND2(A, B, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES_AND2(A, B, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND3(A, B, C, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES_AND3(A, B, C, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND4(A, B, C, D, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES_AND4(A, B, C, D, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND5(A, B, C, D, E, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES_AND5(A, B, C, D, E, __VA_ARGS__))
#define AT_DISPATCH_COMPLEX_TYPES_AND(A, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_COMPLEX_TYPES_AND(A, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND1(A, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND1(A, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(A, B, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND2(A, B, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND3(A, B, C, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND3(A, B, C, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND4(A, B, C, D, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND4(A, B, C, D, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND5(A, B, C, D, E, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND5(A, B, C, D, E, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND6(A, B, C, D, E, F, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_AND_COMPLEX_TYPES_AND6(A, B, C, D, E, F, __VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES_AND(A, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES_AND(A, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND(A, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND(A, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND2(A, B, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND2(A, B, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND3(A, B, C, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND3(A, B, C, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND(A, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND(A, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(A, B, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND2(A, B, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(A, B, C, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND3(A, B, C, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(A, B, C, D, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND4(A, B, C, D, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND5(A, B, C, D, E, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND5(A, B, C, D, E, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND6(A, B, C, D, E, F, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND6(A, B, C, D, E, F, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND7(A, B, C, D, E, F, G, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND7(A, B, C, D, E, F, G, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND8(A, B, C, D, E, F, G, H, TYPE, NAME, ...) AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND_COMPLEX_AND8(A, B, C, D, E, F, G, H, __VA_ARGS__))

// Deprecated in PyTorch, still in kernel files: all types plus Half.
#define AT_DISPATCH_ALL_TYPES_AND_HALF(TYPE, NAME, ...) AT_DISPATCH_ALL_TYPES_AND(at::ScalarType::Half, TYPE, NAME, __VA_ARGS__)

// Index dtypes bind `index_t`, not `scalar_t`.
#define AT_DISPATCH_INDEX_TYPES(TYPE, NAME, ...)                                      \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                      \
                     AT_PRIVATE_CASE_TYPE_USING_HINT(at::ScalarType::Int, index_t, __VA_ARGS__) \
                     AT_PRIVATE_CASE_TYPE_USING_HINT(at::ScalarType::Long, index_t, __VA_ARGS__))
