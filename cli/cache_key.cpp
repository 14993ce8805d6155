#include "cli/cache_key.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "analyzers/frontend/content_hash.h"
#include "analyzers/isolation/analysis_wire.h"
#include "support/fs_paths.h"
#include "support/process.h"

extern char** environ;

namespace kl::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string env_value(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

// A program found on PATH, resolved through its links ("" when none): another nvcc or
// python3 first on PATH is another toolkit or another PyTorch.
std::string resolved_program(const std::string& name) {
  fs::path found = find_on_path(name);
  if (found.empty()) return {};
  std::error_code ec;
  fs::path real = fs::canonical(found, ec);
  return (ec ? found : real).string();
}

// KERNEL_LSP_* but the cache's and the toolkit PCHs' folders; a *_TOML override with its file's contents, since
// the table it names is read at every start.
json kernel_lsp_environment() {
  json out = json::object();
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string_view pair(*entry);
    if (pair.rfind("KERNEL_LSP_", 0) != 0) continue;
    size_t equals = pair.find('=');
    std::string name(pair.substr(0, equals));
    if (name == "KERNEL_LSP_CACHE_DIR" || name == "KERNEL_LSP_PCH_DIR") continue;
    std::string value(equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1));
    if (name.size() > 5 && name.compare(name.size() - 5, 5, "_TOML") == 0) {
      std::optional<std::string> table = read_file_text(value);
      value += "\n" + (table ? analyzers::content_hash(*table) : std::string("unreadable"));
    }
    out[name] = value;
  }
  return out;
}

}  // namespace

std::string binary_identity(std::string_view version) {
  std::error_code ec;
  fs::path executable = fs::canonical("/proc/self/exe", ec);
  struct stat info{};
  std::string stamp = "unknown";
  if (!ec && ::stat(executable.c_str(), &info) == 0) {
    stamp = executable.string() + "\n" + std::to_string(info.st_size) + "\n" +
            std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec) + "\n" +
            std::to_string(info.st_ino);
  }
  return std::string(version) + "-" + analyzers::content_hash(stamp).substr(0, 16);
}

std::string settings_key(const analyzers::AnalysisSettings& settings) {
  json settings_json = analyzers::settings_to_json(settings);
  // How the analysis is done, not what it finds (the toolkit PCH gives the same findings: a test).
  for (const char* how : {"cache_parses", "configuration_threads", "shared_pch", "pch_dir"}) settings_json.erase(how);
  std::error_code ec;
  json key = {{"settings", std::move(settings_json)},
              {"cwd", fs::current_path(ec).string()},
              {"nvcc", resolved_program("nvcc")},
              {"python3", resolved_program("python3")},
              {"usr_local_cuda", fs::canonical("/usr/local/cuda", ec).string()},  // the last fallback
              {"kernel_lsp", kernel_lsp_environment()}};
  for (const char* name : {"CUDA_PATH", "CUDA_HOME", "Torch_DIR", "TORCH_INSTALL_PREFIX", "VIRTUAL_ENV",
                           "CONDA_PREFIX", "PYTHONPATH", "CUTLASS_PATH", "CUTLASS_DIR", "CUTLASS_HOME",
                           "TORCH_CUDA_ARCH_LIST"})
    key["env"][name] = env_value(name);
  return analyzers::content_hash(key.dump());
}

}  // namespace kl::cli
