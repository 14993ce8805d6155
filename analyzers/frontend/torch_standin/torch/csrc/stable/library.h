#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/csrc/stable/library.h>, for analysis only: it is
// never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real PyTorch
// headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// Operator registration under the stable ABI: STABLE_TORCH_LIBRARY(ns, m) { m.def(...); } and
// STABLE_TORCH_LIBRARY_IMPL(ns, CUDA, m) { m.impl("op", TORCH_BOX(&op)); }, with the _FRAGMENT
// form. As with torch/library.h here, the block becomes the body of a function of a
// StableLibrary& (declared only; nothing registers anything). TORCH_BOX(&f) names a boxed
// function of f's signature, so a call with the wrong function still fails to compile.
#include <cstdint>

#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/util/Exception.h>

namespace torch::stable::detail {

using BoxedFunction = void (*)(StableIValue* stack, uint64_t num_args, uint64_t num_outputs);

template <auto Function>
void boxed(StableIValue* stack, uint64_t num_args, uint64_t num_outputs);

}  // namespace torch::stable::detail

class StableLibrary final {
 public:
  enum class Kind { DEF, IMPL, FRAGMENT };
  StableLibrary(Kind kind, const char* ns, const char* key, const char* file, uint32_t line);
  StableLibrary(const StableLibrary&) = delete;
  StableLibrary& operator=(const StableLibrary&) = delete;

  StableLibrary& def(const char* schema);
  StableLibrary& impl(const char* name, torch::stable::detail::BoxedFunction function);
};

class StableTorchLibraryInit final {
 public:
  StableTorchLibraryInit(StableLibrary::Kind kind, void (*init)(StableLibrary&), const char* ns,
                         const char* key, const char* file, uint32_t line);
};

#define TORCH_BOX(function) (&::torch::stable::detail::boxed<function>)

#define KERNEL_LSP_STABLE_CONCAT_(a, b) a##b
#define KERNEL_LSP_STABLE_CONCAT(a, b) KERNEL_LSP_STABLE_CONCAT_(a, b)
#define KERNEL_LSP_STABLE_TORCH_LIBRARY(kind, ns, key, m, uid)                                        \
  static void KERNEL_LSP_STABLE_CONCAT(kernel_lsp_stable_library_init_##ns##_, uid)(StableLibrary&);  \
  static const StableTorchLibraryInit KERNEL_LSP_STABLE_CONCAT(kernel_lsp_stable_library_static_##ns##_, uid)( \
      StableLibrary::Kind::kind, &KERNEL_LSP_STABLE_CONCAT(kernel_lsp_stable_library_init_##ns##_, uid), #ns, \
      key, __FILE__, __LINE__);                                                                       \
  void KERNEL_LSP_STABLE_CONCAT(kernel_lsp_stable_library_init_##ns##_, uid)(StableLibrary & m)

#define STABLE_TORCH_LIBRARY(ns, m) KERNEL_LSP_STABLE_TORCH_LIBRARY(DEF, ns, nullptr, m, __COUNTER__)
#define STABLE_TORCH_LIBRARY_FRAGMENT(ns, m) KERNEL_LSP_STABLE_TORCH_LIBRARY(FRAGMENT, ns, nullptr, m, __COUNTER__)
#define STABLE_TORCH_LIBRARY_IMPL(ns, k, m) KERNEL_LSP_STABLE_TORCH_LIBRARY(IMPL, ns, #k, m, __COUNTER__)
