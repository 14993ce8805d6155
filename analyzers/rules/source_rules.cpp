#include "analyzers/rules/rule_catalog.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {

// Rules register here and nowhere else.
const std::vector<SourceRuleEntry>& source_rules() {
  static const std::vector<SourceRuleEntry> rules = {
      {kArchMismatch, &check_arch_mismatch},
      {kSmemLimit, &check_smem_limit},
      {kUncoalescedAccess, &check_uncoalesced_access},
      {kMisalignedAccess, &check_misaligned_access},
  };
  return rules;
}

}  // namespace kl::analyzers
