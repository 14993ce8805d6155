#include "analyzers/project/kernel_includers.h"

#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "analyzers/project/include_directives.h"
#include "support/fs_paths.h"

namespace kl::analyzers {
namespace {

namespace fs = std::filesystem;

// The file itself, through symbolic links; asked only of files named like the target, since
// it costs a system call per path component.
fs::path real_path(const fs::path& path) {
  std::error_code error;
  fs::path real = fs::weakly_canonical(path, error);
  return error ? path : real;
}

bool lies_under(const fs::path& folder, const fs::path& path) {
  const fs::path relative = path.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

bool is_cu_file(const fs::path& path) {
  std::error_code error;
  return path.extension() == ".cu" && fs::is_regular_file(path, error);
}

// The .cu files under a folder named by a `src` entry (a kernel-lsp leniency: kernel-builder
// lists files), bounded like every other walk here.
void add_cu_files_under(const fs::path& folder, std::vector<fs::path>& out) {
  std::error_code error;
  size_t seen = 0;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end && seen < kMaxScannedFiles; it.increment(error), ++seen) {
    if (is_cu_file(it->path())) out.push_back(it->path());
  }
}

// The include graph of one project, read lazily: each file's directives are read once per walk.
// Files are named by their absolute, lexically normal paths; the target is also compared
// through symbolic links, so that a header opened through a link is still found.
class IncludeWalk {
 public:
  IncludeWalk(const fs::path& project_dir, const fs::path& target)
      : project_(absolute_normal(project_dir)),
        target_(absolute_normal(target)),
        real_target_(real_path(target_)) {}

  // Whether following includes from `roots` (resolved against `include_dirs`) reaches the target.
  bool reaches(const std::vector<fs::path>& roots, const std::vector<fs::path>& include_dirs) {
    std::set<fs::path> visited;
    std::vector<fs::path> pending;
    for (const fs::path& root : roots) {
      fs::path path = absolute_normal(root);
      if (visited.insert(path).second) pending.push_back(std::move(path));
    }
    while (!pending.empty()) {
      const fs::path file = std::move(pending.back());
      pending.pop_back();
      if (is_target(file)) return true;
      for (const IncludeDirective& directive : directives(file)) {
        std::optional<fs::path> found = resolve(directive, file, include_dirs);
        if (found && visited.insert(*found).second) pending.push_back(std::move(*found));
      }
    }
    return false;
  }

 private:
  bool is_target(const fs::path& file) const {
    if (file == target_) return true;
    return file.filename() == target_.filename() && real_path(file) == real_target_;
  }

  const std::vector<IncludeDirective>& directives(const fs::path& file) {
    auto [it, inserted] = directives_.try_emplace(file);
    if (inserted && directives_.size() <= kMaxScannedFiles) {
      if (std::optional<std::string> text = read_file_text(file)) it->second = include_directives(*text);
    }
    return it->second;
  }

  // The project file an include names, as the compiler would find it; none when it names a
  // file outside the project (or none at all).
  std::optional<fs::path> resolve(const IncludeDirective& directive, const fs::path& from,
                                  const std::vector<fs::path>& include_dirs) const {
    auto candidate = [&](const fs::path& folder) -> std::optional<fs::path> {
      std::error_code error;
      fs::path path = (folder / directive.name).lexically_normal();
      if (!fs::is_regular_file(path, error)) return std::nullopt;
      return path;
    };
    std::optional<fs::path> found;
    if (!directive.angled) found = candidate(from.parent_path());
    for (size_t i = 0; !found && i < include_dirs.size(); ++i) found = candidate(include_dirs[i]);
    if (found && !lies_under(project_, *found)) return std::nullopt;
    return found;
  }

  fs::path project_;
  fs::path target_;
  fs::path real_target_;
  std::map<fs::path, std::vector<IncludeDirective>> directives_;
};

}  // namespace

std::vector<fs::path> kernel_cu_sources(const BuildConfig& config, const KernelSection& kernel) {
  std::vector<fs::path> sources;
  for (const std::string& entry : kernel.src) {
    const fs::path path = (config.project_dir() / entry).lexically_normal();
    std::error_code error;
    if (fs::is_directory(path, error))
      add_cu_files_under(path, sources);
    else if (is_cu_file(path))
      sources.push_back(path);
  }
  return sources;
}

std::vector<fs::path> kernel_include_dirs(const BuildConfig& config, const KernelSection& kernel) {
  std::vector<fs::path> dirs;
  for (const std::string& entry : kernel.include) {
    fs::path dir = (config.project_dir() / entry).lexically_normal();
    if (!dir.empty() && !dir.has_filename()) dir = dir.parent_path();  // "csrc/" is "csrc"
    dirs.push_back(std::move(dir));
  }
  return dirs;
}

std::vector<const KernelSection*> cuda_kernels_including(const BuildConfig& config, const fs::path& file) {
  IncludeWalk walk(config.project_dir(), file);
  std::vector<const KernelSection*> found;
  for (const KernelSection& kernel : config.kernels) {
    if (kernel.backend != "cuda") continue;
    if (walk.reaches(kernel_cu_sources(config, kernel), kernel_include_dirs(config, kernel)))
      found.push_back(&kernel);
  }
  return found;
}

}  // namespace kl::analyzers
