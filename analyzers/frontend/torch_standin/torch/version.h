#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/version.h>, for analysis only: it is never
// compiled into anything. Real PyTorch headers win when kernel-lsp finds them (see
// analyzers/frontend/torch_standin/README.md).
//
// The API level the stand-in models: a 2.x release. `#if TORCH_VERSION_MAJOR >= 2` branches
// in user code take the path that matches the declarations the stand-in provides.
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 5
#define TORCH_VERSION_PATCH 0
#define TORCH_VERSION "2.5.0"
