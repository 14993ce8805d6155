#pragma once
// kernel-lsp's stand-in for <pybind11/stl.h>, for analysis only: it is never compiled into
// anything (pybind11 2.x; real headers win when found; see
// analyzers/frontend/torch_standin/README.md). STL conversions need no declarations here.
#include <map>
#include <optional>
#include <vector>

#include <pybind11/pybind11.h>
