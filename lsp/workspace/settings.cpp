#include "lsp/workspace/settings.h"

namespace kl::lsp {

AnalysisSettingsConversion to_analysis_settings(const Settings& settings) {
  AnalysisSettingsConversion out;
  out.settings.cuda_path = settings.cuda_path;
  out.settings.extra_flags = settings.extra_flags;
  out.settings.cache_parses = true;
  for (const std::string& text : settings.default_archs) {
    if (auto capability = analyzers::parse_capability(text))
      out.settings.default_archs.push_back(*capability);
    else
      out.problems.push_back("defaultArchs: '" + text + "' is not a compute capability");
  }
  out.settings.disabled_rules = settings.disabled_rules;
  for (const auto& [rule, level] : settings.severities) {
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
