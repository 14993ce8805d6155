#pragma once
// Where a torch-style kernel file's PyTorch headers come from. Kernel files include
// <torch/extension.h>, <ATen/cuda/CUDAContext.h>, ... and dispatch their kernel templates with
// AT_DISPATCH_*; without those headers clang never instantiates the kernels and nothing is
// analysed. So: the real headers of a PyTorch installation when one is found, else kernel-lsp's
// stand-in (analyzers/frontend/torch_standin/, the parts of the API kernel files use).
//
// Order of search (the first that yields an existing folder wins):
//   1. explicit folders from the caller (the `torchIncludePath` setting), as given;
//   2. $Torch_DIR (the CMake package folder, e.g. <prefix>/share/cmake/Torch): the nearest
//      folder above it with include/ATen/ATen.h is the prefix;
//   3. $TORCH_INSTALL_PREFIX: <prefix>/include and <prefix>/include/torch/csrc/api/include;
//   4. the Python `torch` on PATH: torch.utils.cpp_extension.include_paths() (and Python's own
//      include folder, for <Python.h>), asked at most once per process and python program;
//   5. Debian's libtorch-dev layout: <root>/ATen/ATen.h and <root>/torch/csrc/api/include —
//      only when it was built with CUDA (c10/cuda/impl/cuda_cmake_macros.h). Debian 12's is a
//      CPU-only build whose CUDA headers are incomplete: every torch-style .cu file would miss a
//      header and parse ten times slower than with the stand-in, which serves such files better.
// The folders compilers search by default (/usr/include, /usr/local/include) are never
// returned: clang searches them already, and adding them as -isystem would reorder libstdc++'s
// #include_next chain.
//
// Thread-safe. Cost: a few stat calls; step 4 runs python (import torch, about a second or
// more; at most `python_timeout`) the first time only, and concurrent first callers wait for
// that one answer. The caller decides how often to look (once per Analyzer is enough).
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kl::analyzers {

struct TorchHeaderQuery {
  std::vector<std::filesystem::path> explicit_dirs;  // the torchIncludePath setting
  bool ask_python = true;
  std::filesystem::path python = "python3";  // looked up on PATH unless absolute
  std::chrono::milliseconds python_timeout{std::chrono::seconds(20)};
  std::filesystem::path debian_root = "/usr/include";
  bool accept_cpu_only_debian = false;  // tests compare the stand-in with Debian's CPU-only build
};

struct TorchHeaders {
  std::vector<std::filesystem::path> include_dirs;  // in torch's order; empty when none found
  // "torchIncludePath", "Torch_DIR", "TORCH_INSTALL_PREFIX", "python3 (torch)", "libtorch-dev".
  std::string found_by;
  std::string version;             // "1.13" from torch/version.h, when readable
  std::vector<std::string> notes;  // why a candidate was passed over (for `kernel-lsp check`)

  bool found() const { return !include_dirs.empty(); }
  // "PyTorch 1.13 headers from libtorch-dev (/usr/include/torch/csrc/api/include)".
  std::string describe() const;
};

TorchHeaders find_torch_headers(const TorchHeaderQuery& query = {});

// The stand-in headers' folder (analyzers/frontend/torch_standin), found like the CUDA shims;
// empty when the installation lacks it.
std::filesystem::path default_torch_standin_dir();

// Python's include folder beside a Debian-style layout: the newest <root>/python3.N that holds
// Python.h; nothing when none does. For <Python.h> where PyTorch's headers did not bring it
// (kernel-builder's registration.h includes it).
std::optional<std::filesystem::path> python_include_beside(const std::filesystem::path& root);

// Whether a clang command line's include folders (-I, -isystem, -idirafter, both spellings)
// already reach PyTorch's headers (a folder with ATen/ATen.h): then the project's own torch
// is used and neither the found headers nor the stand-in should be added.
bool include_flags_reach_torch(const std::vector<std::string>& flags);

// The clang flags that put torch's headers on the search path: -isystem for each found folder,
// else -isystem for the stand-in (nothing when both are empty). System folders, so that clang
// skips the bodies of their functions and reports no errors from them, like CUDA's headers.
std::vector<std::string> torch_include_flags(const TorchHeaders& found,
                                             const std::filesystem::path& standin_dir);

}  // namespace kl::analyzers
