#include "lsp/server/project_diagnostics.h"

namespace kl::lsp {
namespace fs = std::filesystem;

std::set<fs::path> ProjectDiagnostics::replace(const fs::path& project, const std::vector<analyzers::Finding>& findings) {
  std::set<fs::path> affected;
  std::lock_guard lock(mutex_);
  std::set<fs::path>& files = files_of_project_[project];
  for (const auto& file : files) {
    by_file_.erase(file);
    affected.insert(file);
  }
  files.clear();
  for (const auto& finding : findings) {
    fs::path file = fs::path(finding.location.file).lexically_normal();
    by_file_[file].push_back(finding);
    files.insert(file);
    affected.insert(file);
  }
  return affected;
}

std::vector<analyzers::Finding> ProjectDiagnostics::of(const fs::path& file) const {
  std::lock_guard lock(mutex_);
  auto it = by_file_.find(file.lexically_normal());
  return it == by_file_.end() ? std::vector<analyzers::Finding>{} : it->second;
}

void ProjectDiagnostics::forget(const fs::path& file) {
  std::lock_guard lock(mutex_);
  by_file_.erase(file.lexically_normal());
}

}  // namespace kl::lsp
