#include "analyzers/frontend/cuda_toolkit.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>

#include "support/fs_paths.h"
#include "support/process.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

bool CudaToolkit::can_target(const Capability& capability) const {
  if (supported_sms.empty()) return true;
  return std::find(supported_sms.begin(), supported_sms.end(), capability.number()) !=
         supported_sms.end();
}

bool parse_nvcc_version(const std::string& nvcc_output, int& major, int& minor) {
  static const std::regex release(R"(release (\d+)\.(\d+))");
  std::smatch m;
  if (!std::regex_search(nvcc_output, m, release)) return false;
  major = std::stoi(m[1]);
  minor = std::stoi(m[2]);
  return true;
}

std::vector<int> parse_gpu_code_list(const std::string& nvcc_output) {
  static const std::regex sm(R"(sm_(\d+))");
  std::vector<int> sms;
  for (auto it = std::sregex_iterator(nvcc_output.begin(), nvcc_output.end(), sm);
       it != std::sregex_iterator(); ++it) {
    int n = std::stoi((*it)[1]);
    if (std::find(sms.begin(), sms.end(), n) == sms.end()) sms.push_back(n);
  }
  std::sort(sms.begin(), sms.end());
  return sms;
}

namespace {

bool looks_like_toolkit(const fs::path& root) {
  std::error_code ec;
  return fs::exists(root / "include" / "cuda_runtime.h", ec);
}

// Reads version.txt/version.json-less toolkits through nvcc itself; falls back to the
// CUDA_VERSION define in cuda.h when nvcc is missing.
void read_version(CudaToolkit& toolkit) {
  if (!toolkit.nvcc.empty()) {
    ProcessRequest request{toolkit.nvcc, {"--version"}};
    request.timeout = std::chrono::seconds(30);
    if (auto out = run_process(request); out && out->exit_code == 0) {
      parse_nvcc_version(out->stdout_text, toolkit.version_major, toolkit.version_minor);
    }
    ProcessRequest list{toolkit.nvcc, {"--list-gpu-code"}};
    list.timeout = std::chrono::seconds(30);
    if (auto out = run_process(list); out && out->exit_code == 0) {
      toolkit.supported_sms = parse_gpu_code_list(out->stdout_text);
    }
  }
  if (toolkit.version_major == 0) {
    if (auto header = read_file_text(toolkit.root / "include" / "cuda.h")) {
      static const std::regex define(R"(#define\s+CUDA_VERSION\s+(\d+))");
      std::smatch m;
      if (std::regex_search(*header, m, define)) {
        int v = std::stoi(m[1]);
        toolkit.version_major = v / 1000;
        toolkit.version_minor = (v % 1000) / 10;
      }
    }
  }
}

Result<CudaToolkit> probe(const fs::path& root, const std::string& found_by) {
  if (!looks_like_toolkit(root)) {
    return make_error(found_by + " points at " + root.string() +
                      ", which has no include/cuda_runtime.h");
  }
  CudaToolkit toolkit;
  std::error_code ec;
  toolkit.root = fs::canonical(root, ec);
  if (ec) toolkit.root = root;
  toolkit.found_by = found_by;
  if (fs::exists(toolkit.root / "bin" / "nvcc", ec)) toolkit.nvcc = toolkit.root / "bin" / "nvcc";
  read_version(toolkit);
  return toolkit;
}

}  // namespace

Result<CudaToolkit> find_cuda_toolkit(const std::optional<fs::path>& explicit_path) {
  // Toolkit discovery runs nvcc twice; cache per root so that a lint of many files pays once.
  static std::mutex mutex;
  static std::map<std::string, CudaToolkit> cache;

  std::vector<std::pair<fs::path, std::string>> candidates;
  if (explicit_path) {
    candidates.emplace_back(*explicit_path, "--cuda-path");
  } else {
    if (const char* p = std::getenv("CUDA_PATH"); p && *p) candidates.emplace_back(p, "CUDA_PATH");
    if (const char* p = std::getenv("CUDA_HOME"); p && *p) candidates.emplace_back(p, "CUDA_HOME");
    if (auto nvcc = find_on_path("nvcc"); !nvcc.empty()) {
      std::error_code ec;
      auto real = fs::canonical(nvcc, ec);
      candidates.emplace_back((ec ? nvcc : real).parent_path().parent_path(), "nvcc on PATH");
    }
    candidates.emplace_back("/usr/local/cuda", "/usr/local/cuda");
  }
  std::string tried;
  for (const auto& [root, found_by] : candidates) {
    {
      std::lock_guard lock(mutex);
      if (auto it = cache.find(root.string()); it != cache.end()) return it->second;
    }
    auto toolkit = probe(root, found_by);
    if (toolkit) {
      std::lock_guard lock(mutex);
      cache.emplace(root.string(), *toolkit);
      return toolkit;
    }
    if (explicit_path) return toolkit.error();
    tried += (tried.empty() ? "" : ", ") + root.string() + " (" + found_by + ")";
  }
  return make_error("no CUDA toolkit found (tried " + tried +
                    "); install one or pass --cuda-path / set CUDA_PATH");
}

}  // namespace kl::analyzers
