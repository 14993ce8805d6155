#include "analyzers/rules/rule.h"

namespace kl::analyzers {

namespace {
constexpr std::string_view kGuidanceBase =
    "https://github.com/kernel-lsp/kernel-lsp/blob/main/skills/cuda-kernels/";
}

std::string Rule::help_uri() const { return std::string(kGuidanceBase) + std::string(guidance_page); }

Finding Rule::finding(Location location, std::string message) const {
  Finding f;
  f.rule_id = std::string(id);
  f.severity = default_severity;
  f.location = std::move(location);
  f.message = std::move(message);
  f.help_uri = help_uri();
  return f;
}

}  // namespace kl::analyzers
