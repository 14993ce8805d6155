#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/Exception.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// TORCH_CHECK and its relatives, with PyTorch's shapes: TORCH_CHECK(cond, message parts...) is a
// statement (an `if` that calls a host-only [[noreturn]] function), so a check that fails stops
// the flow the way the real one's exception does; TORCH_CHECK_EQ(a, b) is an expression that
// takes more message parts with <<. The failure functions are declared, not defined.
#include <cstdint>
#include <exception>
#include <string>

#include <c10/macros/Macros.h>
#include <c10/util/C++17.h>

namespace c10 {

class Error : public std::exception {
 public:
  explicit Error(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& msg() const { return message_; }

 private:
  std::string message_;
};
class ValueError : public Error { using Error::Error; };
class TypeError : public Error { using Error::Error; };
class IndexError : public Error { using Error::Error; };
class NotImplementedError : public Error { using Error::Error; };

// The message parts streamed together, as PyTorch's c10::str does.
template <typename... Args>
std::string str(const Args&... args);

namespace detail {

[[noreturn]] void torch_check_fail(const char* function, const char* file, uint32_t line,
                                   const std::string& message);
void torch_warn(const char* function, const char* file, uint32_t line, const std::string& message);

// What TORCH_CHECK_EQ and friends return: more message parts may follow with <<.
struct CheckMessageStream {
  bool passed;
  template <typename T>
  const CheckMessageStream& operator<<(const T&) const { return *this; }
};
CheckMessageStream check_op_result(bool passed, const char* function, const char* file, uint32_t line);

}  // namespace detail
}  // namespace c10

#define KERNEL_LSP_TORCH_FAIL(...)                                                            \
  ::c10::detail::torch_check_fail(__func__, __FILE__, static_cast<uint32_t>(__LINE__),        \
                                  ::c10::str(__VA_ARGS__))

#define TORCH_CHECK(cond, ...)                 \
  if (C10_UNLIKELY_OR_CONST(!(cond))) {        \
    KERNEL_LSP_TORCH_FAIL(__VA_ARGS__);        \
  }
#define TORCH_CHECK_MSG(cond, type, ...) ::c10::str(__VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_LINALG(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_ALWAYS_SHOW_CPP_STACKTRACE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)

#define KERNEL_LSP_TORCH_CHECK_OP(a, b, op)                                                    \
  ::c10::detail::check_op_result(static_cast<bool>((a)op(b)), __func__, __FILE__,              \
                                 static_cast<uint32_t>(__LINE__))
#define TORCH_CHECK_EQ(a, b) KERNEL_LSP_TORCH_CHECK_OP(a, b, ==)
#define TORCH_CHECK_NE(a, b) KERNEL_LSP_TORCH_CHECK_OP(a, b, !=)
#define TORCH_CHECK_LE(a, b) KERNEL_LSP_TORCH_CHECK_OP(a, b, <=)
#define TORCH_CHECK_LT(a, b) KERNEL_LSP_TORCH_CHECK_OP(a, b, <)
#define TORCH_CHECK_GE(a, b) KERNEL_LSP_TORCH_CHECK_OP(a, b, >=)
#define TORCH_CHECK_GT(a, b) KERNEL_LSP_TORCH_CHECK_OP(a, b, >)

#define TORCH_WARN(...) \
  ::c10::detail::torch_warn(__func__, __FILE__, static_cast<uint32_t>(__LINE__), ::c10::str(__VA_ARGS__))
#define TORCH_WARN_ONCE(...) TORCH_WARN(__VA_ARGS__)

// Deprecated spellings that kernel files still use.
#define AT_ERROR(...) KERNEL_LSP_TORCH_FAIL(__VA_ARGS__)
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define AT_ASSERTM(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define AT_CHECK(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
