#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/util/Exception.h>, for analysis only: it
// is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// STD_TORCH_CHECK(cond, message parts...): the stable ABI's TORCH_CHECK. A statement (an `if`
// that calls a host-only [[noreturn]] function, declared only), so a failed check ends the
// flow as the real one's exception does; the message parts may be of any streamable type.
#include <cstdint>

namespace torch::headeronly::detail {

template <typename... Args>
[[noreturn]] void std_torch_check_fail(const char* function, const char* file, uint32_t line,
                                       const Args&... message);

}  // namespace torch::headeronly::detail

#define STD_TORCH_CHECK(cond, ...)                                                                \
  if (!(cond)) {                                                                                  \
    ::torch::headeronly::detail::std_torch_check_fail(__func__, __FILE__,                         \
                                                      static_cast<uint32_t>(__LINE__), ##__VA_ARGS__); \
  }
