#pragma once
// kernel-lsp's stand-in for PyTorch's <torch/python.h>, for analysis only: it is never compiled
// into anything. It follows the PyTorch 2.x C++ API; real PyTorch headers win when kernel-lsp
// finds them (see analyzers/frontend/torch_standin/README.md).
//
// Python bindings: pybind11 (the stand-in's, see pybind11/pybind11.h) and the `py` alias that
// torch's own pybind header declares.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <torch/types.h>

namespace py = pybind11;
