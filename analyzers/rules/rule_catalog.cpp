#include "analyzers/rules/rule_catalog.h"

#include "analyzers/project/build_toml_spelling.h"

namespace kl::analyzers {

// Each defined in its own rules/<id>.cpp. Rules register here and nowhere else.
extern const Rule kArchMismatchRule;
extern const Rule kArchUnsupportedRule;
extern const Rule kSmemLimitRule;
extern const Rule kUncoalescedAccessRule;
extern const Rule kMisalignedAccessRule;
extern const Rule kBankConflictRule;
extern const Rule kSharedRaceRule;
extern const Rule kDivergentBarrierRule;
extern const Rule kOutOfBoundsRule;
extern const Rule kBuildTomlRule;
extern const Rule kFrontendRule;
extern const Rule kNvccRule;
extern const Rule kPtxasRule;
extern const Rule kComputeSanitizerRule;
extern const Rule kSkillRule;

const std::vector<const Rule*>& rule_catalog() {
  static const std::vector<const Rule*> rules = {
      &kArchMismatchRule,
      &kArchUnsupportedRule,
      &kSmemLimitRule,
      &kUncoalescedAccessRule,
      &kMisalignedAccessRule,
      &kBankConflictRule,
      &kSharedRaceRule,
      &kDivergentBarrierRule,
      &kOutOfBoundsRule,
      &kBuildTomlRule,
      &kFrontendRule,
      &kNvccRule,
      &kPtxasRule,
      &kComputeSanitizerRule,
      &kSkillRule,
  };
  return rules;
}

const Rule* find_rule(std::string_view id) {
  for (const Rule* rule : rule_catalog())
    if (rule->id == id) return rule;
  return nullptr;
}

std::string unknown_rule_problem(std::string_view id) {
  if (find_rule(id)) return {};
  std::vector<std::string_view> ids;
  for (const Rule* rule : rule_catalog()) ids.push_back(rule->id);
  std::string problem = "no rule is called `" + std::string(id) + "`";
  if (auto meant = closest_match(id, ids)) return problem + "; did you mean `" + std::string(*meant) + "`?";
  std::string known;
  for (std::string_view rule : ids) known += (known.empty() ? "" : ", ") + std::string(rule);
  return problem + " (the rules: " + known + ")";
}

}  // namespace kl::analyzers
