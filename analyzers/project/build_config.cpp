// Queries on the project model that do not depend on how build.toml was read.
#include "analyzers/project/build_config.h"

#include <algorithm>
#include <system_error>

#include "support/fs_paths.h"

namespace kl::analyzers {
namespace {

namespace fs = std::filesystem;

// "csrc/", "./csrc" and "csrc" all name the same folder.
fs::path normalised_relative(const std::string& entry) {
  fs::path path = fs::path(entry).lexically_normal();
  if (!path.empty() && !path.has_filename()) path = path.parent_path();
  return path;
}

// True when `relative` is `entry` or lies inside the folder `entry`.
bool entry_covers(const fs::path& entry, const fs::path& relative) {
  if (entry.empty() || entry == ".") return true;  // `src = ["."]`: the whole project
  auto e = entry.begin();
  auto r = relative.begin();
  for (; e != entry.end(); ++e, ++r)
    if (r == relative.end() || *e != *r) return false;
  return true;
}

std::vector<const KernelSection*> cuda_kernels_listing(const std::vector<KernelSection>& kernels,
                                                       const fs::path& relative) {
  std::vector<const KernelSection*> found;
  for (const KernelSection& kernel : kernels)
    if (kernel.backend == "cuda" && src_lists(kernel.src, relative)) found.push_back(&kernel);
  return found;
}

}  // namespace

bool src_lists(const std::vector<std::string>& src, const fs::path& relative) {
  if (relative.empty() || *relative.begin() == "..") return false;  // outside the project
  return std::any_of(src.begin(), src.end(), [&](const std::string& entry) {
    return entry_covers(normalised_relative(entry), relative);
  });
}

std::vector<const KernelSection*> BuildConfig::kernels_for_source(const fs::path& source) const {
  const fs::path project = absolute_normal(project_dir());
  auto found =
      cuda_kernels_listing(kernels, absolute_normal(source).lexically_relative(project));
  if (!found.empty()) return found;
  // The same file reached through a symbolic link (e.g. /tmp -> /private/tmp).
  std::error_code error;
  const fs::path real_project = fs::weakly_canonical(project, error);
  if (error) return found;
  const fs::path real_source = fs::weakly_canonical(source, error);
  if (error) return found;
  return cuda_kernels_listing(kernels, real_source.lexically_relative(real_project));
}

}  // namespace kl::analyzers
