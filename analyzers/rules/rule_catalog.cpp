#include "analyzers/rules/rule_catalog.h"

namespace kl::analyzers {

namespace {
constexpr std::string_view kGuidanceBase =
    "https://github.com/kernel-lsp/kernel-lsp/blob/main/skills/cuda-kernels/";
}

const std::vector<RuleInfo>& rule_catalog() {
  static const std::vector<RuleInfo> rules = {
      {kArchMismatch, Severity::Error,
       "code active for a build.toml capability uses a feature that architecture lacks",
       "references/rules/arch-mismatch.md"},
      {kArchUnsupported, Severity::Error,
       "build.toml lists a capability that is unknown or that the installed CUDA toolkit cannot target",
       "references/rules/arch-unsupported.md"},
      {kSmemLimit, Severity::Error,
       "shared memory per block over the limit of an architecture in build.toml",
       "references/rules/smem-limit.md"},
      {kUncoalescedAccess, Severity::Warning,
       "a global load/store whose address stride between adjacent lanes exceeds its access size",
       "references/rules/uncoalesced-access.md"},
      {kMisalignedAccess, Severity::Error,
       "a vector access through an address not provably aligned to its width",
       "references/rules/misaligned-access.md"},
      {kBuildToml, Severity::Error, "a problem in build.toml itself (syntax, unknown keys, values)",
       "references/rules/build-toml.md"},
      {kFrontend, Severity::Information,
       "the file could only be partly analysed (a header is missing, or the parse failed)",
       "references/troubleshooting.md"},
  };
  return rules;
}

const RuleInfo* find_rule(std::string_view id) {
  for (const auto& rule : rule_catalog())
    if (rule.id == id) return &rule;
  return nullptr;
}

std::string rule_help_uri(std::string_view id) {
  const RuleInfo* rule = find_rule(id);
  if (!rule) return {};
  return std::string(kGuidanceBase) + std::string(rule->guidance_page);
}

}  // namespace kl::analyzers
