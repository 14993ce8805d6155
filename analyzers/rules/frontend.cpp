// frontend: not a check but the name of the findings that say a file could only be partly
// analysed (no toolkit, a missing header, a failed parse, a crashed worker). The pipeline
// (analyzers/pipeline, through frontend.h), the worker supervisor (isolation/failure_finding.cpp)
// and the CLI make them, with the id kFrontend from rule_catalog.h; this descriptor gives them a
// page and a place in SARIF's rule list.
#include "analyzers/rules/frontend.h"

#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_catalog.h"

namespace kl::analyzers {

extern const Rule kFrontendRule;  // listed in rule_catalog.cpp
const Rule kFrontendRule = {
    .id = kFrontend,
    .default_severity = Severity::Information,
    .summary = "the file could only be partly analysed (a header is missing, or the parse failed)",
    .guidance_page = "references/troubleshooting.md",
};

Finding frontend_finding(Location location, std::string message) {
  return kFrontendRule.finding(std::move(location), std::move(message));
}

Finding frontend_finding(Location location, std::string message, Severity severity) {
  Finding f = frontend_finding(std::move(location), std::move(message));
  f.severity = severity;
  return f;
}

}  // namespace kl::analyzers
