#pragma once
// Findings that a project-wide job (a build, a test run) places in the project's files, kept per
// file until the next run of the same project replaces them, or the file is edited (their lines
// no longer match the text). The build and the test controllers each keep one.
//
// Thread-safety: all members may be called concurrently.
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "analyzers/finding.h"

namespace kl::lsp {

class ProjectDiagnostics {
 public:
  // `project`'s findings become `findings`; returns every file whose findings changed (those of
  // the run before and of this one), for republishing.
  std::set<std::filesystem::path> replace(const std::filesystem::path& project,
                                          const std::vector<analyzers::Finding>& findings);
  std::vector<analyzers::Finding> of(const std::filesystem::path& file) const;
  void forget(const std::filesystem::path& file);

 private:
  mutable std::mutex mutex_;
  std::map<std::filesystem::path, std::vector<analyzers::Finding>> by_file_;
  std::map<std::filesystem::path, std::set<std::filesystem::path>> files_of_project_;
};

}  // namespace kl::lsp
