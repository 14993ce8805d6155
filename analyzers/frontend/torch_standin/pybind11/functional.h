#pragma once
// kernel-lsp's stand-in for <pybind11/functional.h>, for analysis only: it is never compiled
// into anything (pybind11 2.x; real headers win when found; see
// analyzers/frontend/torch_standin/README.md). std::function conversions need no declarations.
#include <functional>

#include <pybind11/pybind11.h>
