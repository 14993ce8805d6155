#pragma once
// The stable list of rules: id, default severity, one-line description, guidance page.
// The ids are public (SARIF, suppressions, docs); never rename one.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"

namespace kl::analyzers {

struct RuleInfo {
  std::string_view id;
  Severity default_severity;
  std::string_view summary;
  std::string_view guidance_page;  // path under skills/cuda-kernels/, e.g. references/rules/arch-mismatch.md
};

const std::vector<RuleInfo>& rule_catalog();
const RuleInfo* find_rule(std::string_view id);
// Link to the rule's guidance page (project repository URL + guidance_page).
std::string rule_help_uri(std::string_view id);

inline constexpr std::string_view kArchMismatch = "arch-mismatch";
inline constexpr std::string_view kArchUnsupported = "arch-unsupported";
inline constexpr std::string_view kSmemLimit = "smem-limit";
inline constexpr std::string_view kUncoalescedAccess = "uncoalesced-access";
inline constexpr std::string_view kMisalignedAccess = "misaligned-access";
inline constexpr std::string_view kBuildToml = "build-toml";
inline constexpr std::string_view kFrontend = "frontend";  // the file could only be partly analysed

}  // namespace kl::analyzers
