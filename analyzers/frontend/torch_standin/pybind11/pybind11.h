#pragma once
// kernel-lsp's stand-in for <pybind11/pybind11.h>, for analysis only: it is never compiled into
// anything. It follows pybind11 2.x, as PyTorch 2.x extensions use it; real headers win when
// kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// What a kernel file's binding block uses: PYBIND11_MODULE(name, m) { m.def("f", &f, "doc",
// py::arg("x") = 1, py::call_guard<py::gil_scoped_release>()); }, classes and enums. The block
// becomes the body of a function of a pybind11::module_&; everything is declared only.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace pybind11 {

class handle {
 public:
  handle() = default;
  template <typename T>
  T cast() const;
  bool is_none() const;
  explicit operator bool() const;
};
class object : public handle {
 public:
  object() = default;
  template <typename T>
  object attr(T&& name) const;
  template <typename... Args>
  object operator()(Args&&... args) const;
};
class none : public object {};
class str : public object {
 public:
  str(const char* s = "");  // NOLINT
  str(const std::string& s);  // NOLINT
};
class int_ : public object {
 public:
  template <typename T>
  int_(T value);  // NOLINT
};
class float_ : public object {
 public:
  float_(double value);  // NOLINT
};
class bool_ : public object {};
class tuple : public object {};
class list : public object {
 public:
  template <typename T>
  void append(T&& value) const;
};
class dict : public object {};
class capsule : public object {
 public:
  capsule(const void* value, const char* name = nullptr, void (*destructor)(void*) = nullptr);
};
class module_local {};
class is_method {
 public:
  explicit is_method(const handle& h);
};
class kw_only {};
class pos_only {};
class doc {
 public:
  explicit doc(const char* value);
};
enum class return_value_policy : uint8_t { automatic, automatic_reference, take_ownership, copy, move, reference, reference_internal };
template <typename... Guards>
struct call_guard {};
class gil_scoped_release {
 public:
  gil_scoped_release();
  ~gil_scoped_release();
};
class gil_scoped_acquire {
 public:
  gil_scoped_acquire();
  ~gil_scoped_acquire();
};

struct arg_v;
struct arg {
  constexpr explicit arg(const char* name = nullptr) : name(name) {}
  template <typename T>
  arg_v operator=(T&& value) const;
  arg& noconvert(bool flag = true);
  arg& none(bool flag = true);
  const char* name;
};
struct arg_v : arg {
  using arg::arg;
};
namespace literals {
constexpr arg operator""_a(const char* name, size_t) { return arg(name); }
}  // namespace literals

template <typename T>
object cast(T&& value, return_value_policy policy = return_value_policy::automatic_reference);

template <typename... Args>
struct init_t {};
template <typename... Args>
init_t<Args...> init();

class module_ : public object {
 public:
  template <typename Func, typename... Extra>
  module_& def(const char* name, Func&& f, const Extra&... extra);
  module_ def_submodule(const char* name, const char* doc = nullptr);
  template <typename T>
  void add_object(const char* name, T&& value, bool overwrite = false);
  object attr(const char* name) const;
  object doc() const;
};
using module = module_;

template <typename T, typename... Options>
class class_ : public object {
 public:
  template <typename... Extra>
  class_(handle scope, const char* name, const Extra&... extra);
  template <typename... Args, typename... Extra>
  class_& def(init_t<Args...> init, const Extra&... extra);
  template <typename Func, typename... Extra>
  class_& def(const char* name, Func&& f, const Extra&... extra);
  template <typename Func, typename... Extra>
  class_& def_static(const char* name, Func&& f, const Extra&... extra);
  template <typename D, typename... Extra>
  class_& def_readwrite(const char* name, D T::*member, const Extra&... extra);
  template <typename D, typename... Extra>
  class_& def_readonly(const char* name, const D T::*member, const Extra&... extra);
  template <typename Getter, typename... Extra>
  class_& def_property_readonly(const char* name, const Getter& getter, const Extra&... extra);
  template <typename Getter, typename Setter, typename... Extra>
  class_& def_property(const char* name, const Getter& getter, const Setter& setter, const Extra&... extra);
};

template <typename T>
class enum_ : public object {
 public:
  template <typename... Extra>
  enum_(handle scope, const char* name, const Extra&... extra);
  enum_& value(const char* name, T value, const char* doc = nullptr);
  enum_& export_values();
};

// py::overload_cast<Args...>(&f): picks one overload of f.
template <typename... Args>
struct overload_cast_impl {
  template <typename Return>
  constexpr auto operator()(Return (*pf)(Args...)) const noexcept { return pf; }
  template <typename Return, typename Class>
  constexpr auto operator()(Return (Class::*pmf)(Args...)) const noexcept { return pmf; }
  template <typename Return, typename Class>
  constexpr auto operator()(Return (Class::*pmf)(Args...) const) const noexcept { return pmf; }
};
template <typename... Args>
static constexpr overload_cast_impl<Args...> overload_cast = {};

}  // namespace pybind11

#define PYBIND11_MODULE(name, variable)                                          \
  static void kernel_lsp_pybind11_init_##name(::pybind11::module_&);             \
  extern "C" __attribute__((visibility("default"))) void* PyInit_##name();       \
  void kernel_lsp_pybind11_init_##name(::pybind11::module_ & variable)
