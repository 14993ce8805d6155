#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/util/shim_utils.h>, for analysis only:
// it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real
// PyTorch headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// TORCH_ERROR_CODE_CHECK(call): a statement that fails like STD_TORCH_CHECK when a shim call
// does not return AOTI_TORCH_SUCCESS.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/headeronly/util/Exception.h>

#define TORCH_ERROR_CODE_CHECK(call)                                          \
  do {                                                                        \
    STD_TORCH_CHECK((call) == AOTI_TORCH_SUCCESS, "shim call failed: ", #call); \
  } while (false)
