#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/headeronly/core/MemoryFormat.h>, for analysis only:
// it is never compiled into anything. It follows PyTorch's stable ABI (2.9 and later); real
// PyTorch headers win when kernel-lsp finds them (see analyzers/frontend/torch_standin/README.md).
//
// Layout.h in this folder declares both Layout and MemoryFormat, as c10's.
#include <torch/headeronly/core/Layout.h>
