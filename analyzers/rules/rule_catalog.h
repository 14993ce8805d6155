#pragma once
// The catalog: every rule, in one fixed order. Each rule is defined in its own file
// (analyzers/rules/<id>.cpp, see rule.h); rule_catalog.cpp is the one place that lists them. The
// order is that of SARIF's rule list and the order the checks run in, so it also decides the
// order of findings that share a position.
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/rules/rule.h"

namespace kl::analyzers {

const std::vector<const Rule*>& rule_catalog();
const Rule* find_rule(std::string_view id);
// What is wrong with `id` where a rule id is expected (a setting, a suppression comment): empty
// when it names a rule; otherwise "no rule is called `x`" with the closest id or the list.
std::string unknown_rule_problem(std::string_view id);

// The pseudo-rule of findings that say the file could only be partly analysed. The pipeline,
// the worker supervisor and the CLI make these findings themselves; rules/frontend.cpp holds its
// descriptor.
inline constexpr std::string_view kFrontend = "frontend";
// The pseudo-rules of a build's compiler messages (runner/compiler_messages.h); rules/
// build_messages.cpp holds their descriptors.
inline constexpr std::string_view kNvcc = "nvcc";
inline constexpr std::string_view kPtxas = "ptxas";
// The pseudo-rule of what compute-sanitizer reports in a test run (runner/sanitizer_messages.h).
inline constexpr std::string_view kComputeSanitizer = "compute-sanitizer";
// The pseudo-rule of the agent-skill checks of SKILL.md files (guidance/skill_validation.h).
inline constexpr std::string_view kSkill = "skill";

}  // namespace kl::analyzers
