// build-toml: a problem in build.toml itself: TOML syntax, unknown or misspelt keys, values of
// the wrong type or out of range, keys of another edition. The project reader
// (analyzers/project/build_toml_parser.cpp) finds them, each with its severity, exact range and
// fixes, and knows nothing of rules; this rule reports them as its findings.
#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {
namespace {
void check_build_toml(const BuildTomlInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kBuildTomlRule;  // listed in rule_catalog.cpp
const Rule kBuildTomlRule = {
    .id = "build-toml",
    .default_severity = Severity::Error,
    .summary = "a problem in build.toml itself (syntax, unknown keys, values)",
    .guidance_page = "references/rules/build-toml.md",
    .build_toml_check = &check_build_toml,
};

namespace {

// Each problem as the reader stated it (severity, place, message, fixes, in the reader's order),
// named as this rule's finding.
void check_build_toml(const BuildTomlInput& input, std::vector<Finding>& out) {
  for (const Finding& problem : input.parse->problems) {
    Finding f = problem;
    f.rule_id = std::string(kBuildTomlRule.id);
    out.push_back(std::move(f));
  }
}

}  // namespace
}  // namespace kl::analyzers
