#include "analyzers/project/build_toml_problems.h"

#include <algorithm>

namespace kl::analyzers {

BuildTomlProblems::BuildTomlProblems(std::string file) : file_(std::move(file)) {}

void BuildTomlProblems::error(Range range, std::string message, std::vector<Fix> fixes) {
  add(Severity::Error, range, std::move(message), std::move(fixes));
}

void BuildTomlProblems::warning(Range range, std::string message, std::vector<Fix> fixes) {
  add(Severity::Warning, range, std::move(message), std::move(fixes));
}

Fix BuildTomlProblems::replacement(std::string title, Range range, std::string new_text) const {
  return Fix{std::move(title), {TextEdit{file_, range, std::move(new_text)}}};
}

bool BuildTomlProblems::has_errors() const {
  return std::any_of(findings_.begin(), findings_.end(),
                     [](const Finding& f) { return f.severity == Severity::Error; });
}

std::vector<Finding> BuildTomlProblems::take_sorted() {
  std::stable_sort(findings_.begin(), findings_.end(), [](const Finding& a, const Finding& b) {
    return a.location.range.start < b.location.range.start;
  });
  return std::move(findings_);
}

void BuildTomlProblems::add(Severity severity, Range range, std::string message,
                            std::vector<Fix> fixes) {
  Finding finding;
  finding.severity = severity;
  finding.location = Location{file_, range};
  finding.message = std::move(message);
  finding.fixes = std::move(fixes);
  findings_.push_back(std::move(finding));
}

}  // namespace kl::analyzers
