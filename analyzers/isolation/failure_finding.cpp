#include "analyzers/isolation/failure_finding.h"

#include "analyzers/rules/rule_catalog.h"

namespace kl::analyzers {
namespace {
constexpr std::string_view kPrefix = "analysis of this file failed: ";
}

Finding analysis_failure_finding(const std::string& file, const std::string& what) {
  Finding f;
  f.rule_id = std::string(kFrontend);
  f.severity = Severity::Error;
  f.location.file = file;
  f.message = std::string(kPrefix) + what +
              "; please report it with the file (kernel-lsp " KERNEL_LSP_VERSION
              "). The other files' results are not affected.";
  return f;
}

bool is_analysis_failure(const Finding& finding) {
  return finding.rule_id == kFrontend && finding.message.compare(0, kPrefix.size(), kPrefix) == 0;
}

}  // namespace kl::analyzers
