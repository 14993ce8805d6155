// Stand-in for the registration.h that Hugging Face's kernel-builder
// generates for every torch extension it builds. The local build
// (kernels/tools/build_local.py) puts this folder on the include path, so the
// torch-ext sources compile unchanged under either build.
//
//   TORCH_LIBRARY_EXPAND(NS, m)     TORCH_LIBRARY with NS macro-expanded first
//                                   (NS is TORCH_EXTENSION_NAME, a -D macro)
//   TORCH_LIBRARY_IMPL_EXPAND(NS, K, m)
//   STABLE_TORCH_LIBRARY_EXPAND(NS, m), STABLE_TORCH_LIBRARY_IMPL_EXPAND(NS, K, m)
//                                   the same for stable-ABI bindings
//   REGISTER_EXTENSION(NS)          a PyInit_<NS> that creates an empty module,
//                                   so `import <NS>` loads the shared object and
//                                   runs the static op registration.
#pragma once

#include <Python.h>

#define KL_REG_CAT_(a, b) a##b
#define KL_REG_CAT(a, b) KL_REG_CAT_(a, b)
#define KL_REG_STR_(a) #a
#define KL_REG_STR(a) KL_REG_STR_(a)

#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)
#define TORCH_LIBRARY_IMPL_EXPAND(NAME, DEVICE, MODULE) TORCH_LIBRARY_IMPL(NAME, DEVICE, MODULE)
#define STABLE_TORCH_LIBRARY_EXPAND(NAME, MODULE) STABLE_TORCH_LIBRARY(NAME, MODULE)
#define STABLE_TORCH_LIBRARY_IMPL_EXPAND(NAME, DEVICE, MODULE) STABLE_TORCH_LIBRARY_IMPL(NAME, DEVICE, MODULE)

#define REGISTER_EXTENSION(NAME)                                                  \
  PyMODINIT_FUNC KL_REG_CAT(PyInit_, NAME)(void) {                                \
    static struct PyModuleDef kl_module_def = {PyModuleDef_HEAD_INIT,             \
                                               KL_REG_STR(NAME), nullptr, 0,      \
                                               nullptr, nullptr, nullptr, nullptr, \
                                               nullptr};                          \
    return PyModule_Create(&kl_module_def);                                       \
  }
