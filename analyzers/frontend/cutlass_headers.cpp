#include "analyzers/frontend/cutlass_headers.h"

#include "analyzers/frontend/include_flags.h"

#include <cstdlib>
#include <string>
#include <system_error>

namespace kl::analyzers {
namespace fs = std::filesystem;

namespace {

bool holds_cutlass(const fs::path& include_dir) {
  std::error_code ec;
  return fs::is_regular_file(include_dir / "cutlass" / "cutlass.h", ec);
}

// A checkout (root/include/cutlass/cutlass.h) or its include folder itself.
std::optional<CutlassHeaders> headers_at(const fs::path& candidate, const std::string& found_by) {
  CutlassHeaders out;
  out.found_by = found_by;
  if (holds_cutlass(candidate / "include")) {
    out.root = candidate;
    out.dirs.push_back(candidate / "include");
  } else if (holds_cutlass(candidate)) {
    out.root = candidate.parent_path();
    out.dirs.push_back(candidate);
  } else {
    return std::nullopt;
  }
  std::error_code ec;
  if (fs::is_directory(out.root / "tools" / "util" / "include", ec)) out.dirs.push_back(out.root / "tools" / "util" / "include");
  return out;
}

}  // namespace

std::optional<CutlassHeaders> find_cutlass_headers(const std::vector<fs::path>& configured) {
  for (const fs::path& dir : configured)
    if (auto found = headers_at(dir, "cutlassPath")) return found;
  for (const char* name : {"CUTLASS_PATH", "CUTLASS_DIR", "CUTLASS_HOME"}) {
    const char* value = std::getenv(name);
    if (value && *value)
      if (auto found = headers_at(value, name)) return found;
  }
  return std::nullopt;
}

std::vector<std::string> cutlass_include_flags(const std::optional<CutlassHeaders>& found,
                                               const std::vector<std::string>& flags) {
  if (!found) return {};
  for (const std::string& dir : include_dirs_in(flags))
    if (holds_cutlass(dir)) return {};
  std::vector<std::string> out;
  for (const fs::path& dir : found->dirs) {
    out.push_back("-isystem");
    out.push_back(dir.string());
  }
  return out;
}

}  // namespace kl::analyzers
