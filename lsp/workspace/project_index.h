#pragma once
// Which build.toml applies to which open source file, so that an edit to a build.toml (in the
// editor or on disk) re-lints exactly the files that depend on it.
//
// Discovery is the analyzers' own (analyzers::find_build_toml: the nearest build.toml above
// the file), so the server and the analysis agree; their final answer
// (FileAnalysis::build_toml) replaces the guess through assign().
//
// Thread-safe (one mutex). discover() touches the file system: O(depth) stat calls.
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace kl::lsp {

class ProjectIndex {
 public:
  std::optional<std::filesystem::path> discover(const std::filesystem::path& source) const;

  void assign(const std::filesystem::path& source, std::optional<std::filesystem::path> build_toml);
  void remove(const std::filesystem::path& source);
  std::optional<std::filesystem::path> build_toml_of(const std::filesystem::path& source) const;
  std::vector<std::filesystem::path> dependents(const std::filesystem::path& build_toml) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::filesystem::path, std::optional<std::filesystem::path>> build_toml_of_;
};

}  // namespace kl::lsp
