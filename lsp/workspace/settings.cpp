#include "lsp/workspace/settings.h"

#include <algorithm>
#include <thread>

#include "analyzers/rules/rule_catalog.h"

namespace kl::lsp {
namespace {

// A setting that names no rule does nothing; say so.
void check_rule_id(const std::string& setting, const std::string& id, std::vector<std::string>& problems) {
  std::string problem = analyzers::unknown_rule_problem(id);
  if (!problem.empty()) problems.push_back(setting + ": " + problem);
}

}  // namespace

AnalysisSettingsConversion to_analysis_settings(const Settings& settings) {
  AnalysisSettingsConversion out;
  out.settings.cuda_path = settings.cuda_path;
  out.settings.extra_flags = settings.extra_flags;
  for (const std::string& dir : settings.torch_include_path) out.settings.torch_include_path.emplace_back(dir);
  for (const std::string& dir : settings.cutlass_path) out.settings.cutlass_path.emplace_back(dir);
  out.settings.cache_parses = true;
  // The user waits for this file alone: its other configurations use the idle cores.
  out.settings.configuration_threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  out.settings.shared_pch = settings.shared_pch;
  for (const std::string& text : settings.default_archs) {
    if (auto capability = analyzers::parse_capability(text))
      out.settings.default_archs.push_back(*capability);
    else
      out.problems.push_back("defaultArchs: '" + text + "' is not a compute capability");
  }
  out.settings.disabled_rules = settings.disabled_rules;
  for (const std::string& rule : settings.disabled_rules) check_rule_id("disabledRules", rule, out.problems);
  for (const auto& [rule, level] : settings.severities) {
    check_rule_id("severities", rule, out.problems);
    if (level == "off" || level == "none") {
      out.settings.disabled_rules.insert(rule);
      continue;
    }
    analyzers::Severity severity;
    if (analyzers::parse_severity(level, severity))
      out.settings.severity_overrides[rule] = severity;
    else
      out.problems.push_back("severities: '" + level + "' for " + rule +
                             " is not one of error, warning, info, hint, off");
  }
  return out;
}

}  // namespace kl::lsp
