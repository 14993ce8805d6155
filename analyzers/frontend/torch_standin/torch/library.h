#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/library.h>, for analysis only: it is never
// compiled into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// Operator registration: TORCH_LIBRARY(ns, m) { m.def(...); m.impl(...); } and its _IMPL /
// _FRAGMENT forms. The block becomes the body of a function of a torch::Library& (declared
// only; nothing registers anything).
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/macros/Macros.h>
#include <c10/util/Optional.h>

namespace c10 {
enum class DispatchKey : uint16_t {
  Undefined, CPU, CUDA, HIP, XPU, MPS, Meta, PrivateUse1, Autograd, AutogradCPU, AutogradCUDA,
  CompositeImplicitAutograd, CompositeExplicitAutograd, CompositeExplicitAutogradNonFunctional,
  Autocast, AutocastCUDA, BackendSelect, Python, Functionalize,
};
}  // namespace c10

namespace at {
enum class Tag { core, pointwise, inplace_view, needs_fixed_stride_order, pt2_compliant_tag };
}  // namespace at

namespace torch {

class CppFunction {
 public:
  template <typename Func>
  explicit CppFunction(Func* f);
  template <typename Func>
  static CppFunction makeFromBoxedFunction();
};

template <typename Func>
CppFunction dispatch(c10::DispatchKey key, Func&& raw_f);
template <typename Func>
CppFunction dispatch(c10::DeviceType type, Func&& raw_f);

class Library final {
 public:
  enum Kind { DEF, IMPL, FRAGMENT };
  Library(Kind kind, std::string ns, c10::optional<c10::DispatchKey> key, const char* file, uint32_t line);

  template <typename Schema>
  Library& def(Schema&& raw_schema, const std::vector<at::Tag>& tags = {}) &;
  template <typename NameOrSchema, typename Func>
  Library& def(NameOrSchema&& raw_name_or_schema, Func&& raw_f, const std::vector<at::Tag>& tags = {}) &;
  template <typename Name, typename Func>
  Library& impl(Name name, Func&& raw_f) &;
  template <typename Name, typename Dispatch, typename Func>
  Library& impl(Name name, Dispatch&& key, Func&& raw_f) &;
  template <typename Func>
  Library& fallback(Func&& raw_f) &;
};

namespace detail {
class TorchLibraryInit final {
 public:
  TorchLibraryInit(Library::Kind kind, void (*init)(Library&), const char* ns,
                   c10::optional<c10::DispatchKey> key, const char* file, uint32_t line);
};
}  // namespace detail

}  // namespace torch

#define TORCH_FN(func) (&(func))
#define TORCH_SELECTIVE_NAME(n) n
#define TORCH_SELECTIVE_SCHEMA(n) n

#define KERNEL_LSP_TORCH_LIBRARY(kind, ns, key, m, uid)                                         \
  static void C10_CONCATENATE(kernel_lsp_torch_library_init_##ns##_, uid)(::torch::Library&);   \
  static const ::torch::detail::TorchLibraryInit C10_CONCATENATE(                                \
      kernel_lsp_torch_library_static_##ns##_, uid)(                                             \
      ::torch::Library::kind, &C10_CONCATENATE(kernel_lsp_torch_library_init_##ns##_, uid), #ns, \
      key, __FILE__, __LINE__);                                                                  \
  void C10_CONCATENATE(kernel_lsp_torch_library_init_##ns##_, uid)(::torch::Library & m)

#define TORCH_LIBRARY(ns, m) KERNEL_LSP_TORCH_LIBRARY(DEF, ns, ::c10::nullopt, m, __COUNTER__)
#define TORCH_LIBRARY_FRAGMENT(ns, m) KERNEL_LSP_TORCH_LIBRARY(FRAGMENT, ns, ::c10::nullopt, m, __COUNTER__)
#define TORCH_LIBRARY_IMPL(ns, k, m) \
  KERNEL_LSP_TORCH_LIBRARY(IMPL, ns, ::c10::make_optional(::c10::DispatchKey::k), m, __COUNTER__)
