#include "analyzers/rules/rule_catalog.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {

// Rules register here and nowhere else. A rule whose model is not built yet (the access rules
// need the access model) registers once its facts exist.
const std::vector<SourceRuleEntry>& source_rules() {
  static const std::vector<SourceRuleEntry> rules = {
      {kArchMismatch, &check_arch_mismatch},
      {kSmemLimit, &check_smem_limit},
  };
  return rules;
}

}  // namespace kl::analyzers
