#include "support/fs_paths.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#ifndef KERNEL_LSP_SOURCE_DIR
#define KERNEL_LSP_SOURCE_DIR ""
#endif

namespace kl {

std::filesystem::path executable_path() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : p;
}

std::optional<std::filesystem::path> find_resource(const std::string& relative) {
  std::vector<std::filesystem::path> roots;
  if (const char* env = std::getenv("KERNEL_LSP_RESOURCE_DIR"); env && *env) roots.emplace_back(env);
  auto exe = executable_path();
  if (!exe.empty()) roots.push_back(exe.parent_path().parent_path() / "share" / "kernel-lsp");
  if (*KERNEL_LSP_SOURCE_DIR) roots.emplace_back(KERNEL_LSP_SOURCE_DIR);
  for (const auto& root : roots) {
    std::error_code ec;
    if (std::filesystem::exists(root / relative, ec)) return root / relative;
  }
  return std::nullopt;
}

std::optional<std::string> read_file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return ss.str();
}

std::filesystem::path user_cache_dir(const char* override_env, const std::string& subfolder) {
  if (const char* dir = std::getenv(override_env); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "kernel-lsp" / subfolder;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "kernel-lsp" / subfolder;
  return {};
}

std::filesystem::path temporary_sibling(const std::filesystem::path& path) {
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path temporary = path;
  temporary += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  return temporary;
}

bool write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::path temporary = temporary_sibling(path);
  std::error_code ec;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::filesystem::remove(temporary, ec);
      return false;
    }
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) std::filesystem::remove(temporary, ec);
  return !ec;
}

std::filesystem::path absolute_normal(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return (error ? path : absolute).lexically_normal();
}

std::optional<FileStamp> file_stamp(const std::filesystem::path& file) {
  std::error_code ec;
  FileStamp stamp;
  stamp.size = std::filesystem::file_size(file, ec);
  if (ec) return std::nullopt;
  auto time = std::filesystem::last_write_time(file, ec);
  if (ec) return std::nullopt;
  stamp.modified = time.time_since_epoch().count();
  return stamp;
}

}  // namespace kl
