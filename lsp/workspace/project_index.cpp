#include "lsp/workspace/project_index.h"

#include "analyzers/project/project_locator.h"

namespace kl::lsp {

std::optional<std::filesystem::path> ProjectIndex::discover(const std::filesystem::path& source) const {
  auto found = analyzers::find_build_toml(source);
  if (!found) return std::nullopt;
  return found->lexically_normal();
}

void ProjectIndex::assign(const std::filesystem::path& source,
                          std::optional<std::filesystem::path> build_toml) {
  std::lock_guard<std::mutex> lock(mutex_);
  build_toml_of_[source] = std::move(build_toml);
}

void ProjectIndex::remove(const std::filesystem::path& source) {
  std::lock_guard<std::mutex> lock(mutex_);
  build_toml_of_.erase(source);
}

std::optional<std::filesystem::path> ProjectIndex::build_toml_of(const std::filesystem::path& source) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = build_toml_of_.find(source);
  return it == build_toml_of_.end() ? std::nullopt : it->second;
}

std::vector<std::filesystem::path> ProjectIndex::dependents(const std::filesystem::path& build_toml) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::filesystem::path> out;
  for (const auto& [source, toml] : build_toml_of_)
    if (toml && *toml == build_toml) out.push_back(source);
  return out;
}

}  // namespace kl::lsp
