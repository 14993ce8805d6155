#pragma once
// What a cached lint result depends on besides the files it read (result_cache.h checks those):
// the binary that made it and everything of the run that changes findings. Two runs with equal
// keys and unchanged files get equal findings.
//
// - binary_identity: the version and the executable's size, modification time and inode (one
//   stat of /proc/self/exe, resolved). A rebuild or a reinstall changes the time, a replaced
//   file the inode; hashing the 100+ MB executable would cost more than a warm lint of a
//   small project. The data tables are embedded in the binary, so they change with it.
// - settings_key: the AnalysisSettings (every field but cache_parses), the working directory
//   (relative --extra-flag paths are read from it), and the environment the toolkit, PyTorch
//   and CUTLASS lookups read (CUDA_PATH, CUDA_HOME, nvcc and python3 on PATH and /usr/local/cuda
//   resolved, Torch_DIR,
//   TORCH_INSTALL_PREFIX, VIRTUAL_ENV, CONDA_PREFIX, PYTHONPATH, CUTLASS_PATH/_DIR/_HOME), every
//   KERNEL_LSP_* variable but KERNEL_LSP_CACHE_DIR (the tables' overrides, test hooks), and the
//   contents of the table files the KERNEL_LSP_*_TOML variables name.
#include <string>
#include <string_view>

#include "analyzers/pipeline/analysis.h"

namespace kl::cli {

// "0.1.0-<16 hex digits>": the name of this binary's folder in the cache.
std::string binary_identity(std::string_view version);

// 32 hex digits; the same for the same settings in the same environment.
std::string settings_key(const analyzers::AnalysisSettings& settings);

}  // namespace kl::cli
