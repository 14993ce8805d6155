#pragma once
// kernel-lsp's stand-in for PyTorch's <c10/util/Logging.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// The glog-style macros PyTorch defines when built without glog: LOG(FATAL) << ..., VLOG,
// LOG_IF, CHECK(cond) << ... and CHECK_EQ / _NE / _LT / _LE / _GT / _GE (host code).
#include <sstream>

namespace c10 {

constexpr int GLOG_INFO = 0;
constexpr int GLOG_WARNING = 1;
constexpr int GLOG_ERROR = 2;
constexpr int GLOG_FATAL = 3;

class MessageLogger {
 public:
  MessageLogger(const char* file, int line, int severity);
  ~MessageLogger();
  std::stringstream& stream();
};

// What a disabled log line streams into.
class LoggerVoidify {
 public:
  void operator&(const std::ostream&) {}
};

}  // namespace c10

#define LOG(n) ::c10::MessageLogger(__FILE__, __LINE__, ::c10::GLOG_##n).stream()
#define VLOG(n) LOG(INFO)
#define LOG_IF(n, condition) \
  if (condition) LOG(n)
#define CHECK(condition) \
  if (condition) {       \
  } else                 \
    LOG(FATAL) << "Check failed: " #condition " "
#define KERNEL_LSP_C10_CHECK_OP(a, b, op) CHECK((a)op(b))
#define CHECK_EQ(a, b) KERNEL_LSP_C10_CHECK_OP(a, b, ==)
#define CHECK_NE(a, b) KERNEL_LSP_C10_CHECK_OP(a, b, !=)
#define CHECK_LE(a, b) KERNEL_LSP_C10_CHECK_OP(a, b, <=)
#define CHECK_LT(a, b) KERNEL_LSP_C10_CHECK_OP(a, b, <)
#define CHECK_GE(a, b) KERNEL_LSP_C10_CHECK_OP(a, b, >=)
#define CHECK_GT(a, b) KERNEL_LSP_C10_CHECK_OP(a, b, >)
