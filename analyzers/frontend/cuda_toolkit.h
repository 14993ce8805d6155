#pragma once
// Finding the CUDA toolkit the user builds with, and what it can target. Order of search:
// an explicit path (--cuda-path / setting), $CUDA_PATH, $CUDA_HOME, the folder above `nvcc` on
// PATH, /usr/local/cuda. The version comes from `nvcc --version`; the architectures it can
// target from `nvcc --list-gpu-code` (both run once per toolkit and cached).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/project/capability.h"
#include "support/result.h"

namespace kl::analyzers {

struct CudaToolkit {
  std::filesystem::path root;  // contains include/cuda_runtime.h
  std::filesystem::path nvcc;  // may be empty when only headers are installed
  int version_major = 0;
  int version_minor = 0;
  std::string found_by;             // "--cuda-path", "CUDA_PATH", "nvcc on PATH", ...
  std::vector<int> supported_sms;   // 75, 80, ... from nvcc; empty when nvcc is absent

  std::string version_text() const {
    return std::to_string(version_major) + "." + std::to_string(version_minor);
  }
  // Whether nvcc can build `-gencode` for this capability. Unknown (no nvcc) answers true.
  bool can_target(const Capability& capability) const;
};

Result<CudaToolkit> find_cuda_toolkit(const std::optional<std::filesystem::path>& explicit_path);

// Parses "Cuda compilation tools, release 13.0, V13.0.88" into (13, 0).
bool parse_nvcc_version(const std::string& nvcc_output, int& major, int& minor);
// Parses `nvcc --list-gpu-code` output ("sm_75 sm_80 ...") into {75, 80, ...}.
std::vector<int> parse_gpu_code_list(const std::string& nvcc_output);

}  // namespace kl::analyzers
