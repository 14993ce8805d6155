// nvcc, ptxas, compute-sanitizer and skill: not checks of the analyzers but the names of the
// findings a build makes from the compilers' own errors and warnings (runner/compiler_messages.h),
// a test run from compute-sanitizer's reports (runner/sanitizer_messages.h), and the agent-skill
// checks of SKILL.md files (guidance/skill_validation.h). Those modules make them; these
// descriptors give them a page, a place in SARIF's rule list, and ids that settings and
// suppression comments may name.
#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_catalog.h"

namespace kl::analyzers {

extern const Rule kNvccRule;   // listed in rule_catalog.cpp
extern const Rule kPtxasRule;  // listed in rule_catalog.cpp
extern const Rule kComputeSanitizerRule;  // listed in rule_catalog.cpp
extern const Rule kSkillRule;             // listed in rule_catalog.cpp
const Rule kNvccRule = {
    .id = kNvcc,
    .default_severity = Severity::Error,
    .summary = "an error or warning of nvcc (its C++ front end or the host compiler) in the last build",
    .guidance_page = "references/rules/build-messages.md",
};
const Rule kPtxasRule = {
    .id = kPtxas,
    .default_severity = Severity::Error,
    .summary = "an error or warning of ptxas (PTX to machine code) in the last build",
    .guidance_page = "references/rules/build-messages.md",
};
const Rule kComputeSanitizerRule = {
    .id = kComputeSanitizer,
    .default_severity = Severity::Error,
    .summary = "an error compute-sanitizer (memcheck, racecheck, synccheck, initcheck) reported in a test run",
    .guidance_page = "references/rules/compute-sanitizer.md",
};
const Rule kSkillRule = {
    .id = kSkill,
    .default_severity = Severity::Error,
    .summary = "a problem in an agent skill's SKILL.md: its front matter, or a link to a file it does not have",
    .guidance_page = "references/rules/skill.md",
};

}  // namespace kl::analyzers
