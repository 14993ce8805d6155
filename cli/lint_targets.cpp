#include "cli/lint_targets.h"

#include <algorithm>
#include <set>

#include "analyzers/project/project_locator.h"
#include "support/file_kinds.h"

namespace kl::cli {
namespace fs = std::filesystem;

bool is_cuda_source_name(const fs::path& path) { return is_cuda_file(path); }

namespace {

// Sources named explicitly may be C++ files of a kernel project (.h, .cpp, .inl): accept those
// too, as the editor analyses them.
bool is_explicit_source_name(const fs::path& path) { return is_cuda_file(path) || is_cxx_file(path); }

bool skipped_folder(const fs::path& path) {
  std::string name = path.filename().string();
  return (name.size() > 1 && name[0] == '.') || name == "node_modules" || name == "__pycache__";
}

}  // namespace

LintTargets collect_lint_targets(const std::vector<std::string>& paths) {
  LintTargets out;
  std::set<fs::path> seen;
  auto add = [&](const fs::path& p, TargetKind kind) {
    std::error_code ec;
    fs::path absolute = fs::absolute(p, ec).lexically_normal();
    if (seen.insert(absolute).second) out.targets.push_back({absolute, kind});
  };
  for (const auto& name : paths) {
    std::error_code ec;
    fs::path path(name);
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> found;
      fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
      if (ec) {
        out.problems.push_back({name, "cannot read folder: " + ec.message()});
        continue;
      }
      for (; it != end; it.increment(ec)) {
        if (ec) break;
        if (it->is_directory(ec) && skipped_folder(it->path())) {
          it.disable_recursion_pending();
          continue;
        }
        if (!it->is_regular_file(ec)) continue;
        if (is_cuda_source_name(it->path()) || it->path().filename() == "build.toml") found.push_back(it->path());
      }
      std::sort(found.begin(), found.end());
      for (const auto& f : found)
        add(f, f.filename() == "build.toml" ? TargetKind::BuildToml : TargetKind::CudaSource);
      continue;
    }
    if (!fs::exists(path, ec)) {
      out.problems.push_back({name, "no such file or folder"});
      continue;
    }
    if (path.extension() == ".toml") add(path, TargetKind::BuildToml);
    else if (is_explicit_source_name(path)) add(path, TargetKind::CudaSource);
    else out.problems.push_back({name, "not a CUDA source (.cu, .cuh, or a C++ file of a kernel project) or a build.toml"});
  }
  // The build.toml behind each source, so its capability problems are not missed.
  std::vector<LintTarget> extra;
  for (const auto& target : out.targets) {
    if (target.kind != TargetKind::CudaSource) continue;
    if (auto toml = analyzers::find_build_toml(target.path)) {
      std::error_code ec;
      fs::path absolute = fs::absolute(*toml, ec).lexically_normal();
      if (seen.insert(absolute).second) extra.push_back({absolute, TargetKind::BuildToml});
    }
  }
  out.targets.insert(out.targets.end(), extra.begin(), extra.end());
  return out;
}

}  // namespace kl::cli
