#pragma once
// Collects the problems found in one build.toml, all in the same file, so the section readers
// only say what and where. Each is a Finding without a rule: rule_id stays empty. The
// reader knows nothing of rules; the build-toml rule (analyzers/rules/build_toml.cpp) reports
// these problems as its findings.
#include <string>
#include <vector>

#include "analyzers/finding.h"

namespace kl::analyzers {

class BuildTomlProblems {
 public:
  explicit BuildTomlProblems(std::string file);

  void error(Range range, std::string message, std::vector<Fix> fixes = {});
  void warning(Range range, std::string message, std::vector<Fix> fixes = {});

  // A fix that replaces `range` with `new_text`; an empty range inserts.
  Fix replacement(std::string title, Range range, std::string new_text) const;

  bool has_errors() const;
  // Every problem, ordered by position (then by the order they were found).
  std::vector<Finding> take_sorted();

 private:
  void add(Severity severity, Range range, std::string message, std::vector<Fix> fixes);

  std::string file_;
  std::vector<Finding> findings_;
};

}  // namespace kl::analyzers
