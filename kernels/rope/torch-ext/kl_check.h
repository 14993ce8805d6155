// Generated from kernels/common/kl_check.h by tools/sync_copies.py; edit that file, then run the script.
// Argument checks for the torch bindings that raise c10::Error (RuntimeError
// in Python) without any iostream code in the extension.
//
// Why: TORCH_CHECK(cond, "text ", value, ...) formats its message with
// std::ostringstream inside the extension. Extensions built with
// torch.utils.cpp_extension on the H200 image (torch 2.11, CUDA 13) crashed
// with SIGSEGV in basic_ostream::_M_insert inside the extension while
// formatting such a message (a bad argument took the process down instead of
// raising). Here the message is formatted with vsnprintf and handed to
// TORCH_CHECK as one C string, which needs no stream.
//
// This file is copied into each kernel project's torch-ext folder (each
// project is built on its own); kernels/common/kl_check.h is the original.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace kl {

[[noreturn]] inline void fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

inline void fail(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  const char* msg = buf;
  TORCH_CHECK(false, msg);
  std::abort();  // not reached
}

// "[2, 3, 4]" without streams; the buffer lives until the end of the full
// expression that created it.
struct ShapeText {
  char s[192];
};

inline ShapeText shape(const at::Tensor& t) {
  ShapeText r;
  size_t n = static_cast<size_t>(std::snprintf(r.s, sizeof(r.s), "["));
  for (int64_t d = 0; d < t.dim() && n < sizeof(r.s); ++d)
    n += static_cast<size_t>(std::snprintf(r.s + n, sizeof(r.s) - n, "%s%lld", d ? ", " : "",
                                           static_cast<long long>(t.size(d))));
  if (n < sizeof(r.s)) std::snprintf(r.s + n, sizeof(r.s) - n, "]");
  return r;
}

inline const char* dtype(const at::Tensor& t) { return c10::toString(t.scalar_type()); }

inline long long ll(int64_t v) { return static_cast<long long>(v); }

}  // namespace kl

#define KL_CHECK(cond, ...)          \
  do {                               \
    if (!(cond)) ::kl::fail(__VA_ARGS__); \
  } while (0)
