#pragma once
// A SKILL.md's YAML front matter, read with yaml-cpp and checked against the Agent Skills
// specification (agentskills.io) plus the keys Claude Code adds:
//  - name: required; 1–64 of a-z 0-9 '-'; no leading, trailing or doubled '-'; equal to the
//    skill's folder name;
//  - description: required, 1–1024 characters;
//  - license (string), compatibility (≤ 500 characters), metadata (string → string map),
//    allowed-tools (string or list of strings): optional;
//  - disable-model-invocation, user-invocable (booleans), argument-hint (string): Claude Code;
//  - any other key: a warning (agents ignore it; it is usually a typo).
// Every problem is a Finding (rule "skill") at the line and column of SKILL.md that causes it.
// Pure; O(front matter).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/rules/rule_catalog.h"

namespace kl::guidance {

inline constexpr std::string_view kSkillRule = analyzers::kSkill;  // in the analyzers' rule catalog

struct SkillFrontMatter {
  std::string name;
  std::string description;
  std::string license;
  std::string compatibility;
  std::map<std::string, std::string> metadata;
  std::vector<std::string> allowed_tools;
  std::optional<bool> disable_model_invocation;
  std::optional<bool> user_invocable;
  std::string argument_hint;
};

struct FrontMatterReading {
  // Null when there is no front matter or it is not YAML; set (possibly with errors) otherwise.
  std::optional<SkillFrontMatter> front_matter;
  uint32_t body_line = 0;  // first line after the closing `---` (0 when there is none)
  std::vector<analyzers::Finding> problems;
};

// `file` names SKILL.md in the findings; `folder_name` is the skill's folder (empty: the
// name-equals-folder check is skipped, e.g. for an unsaved buffer with no path).
FrontMatterReading read_skill_front_matter(std::string_view text, const std::string& file,
                                           std::string_view folder_name);

// The first line after the front matter (0 when the text has none); cheap, no YAML parse.
uint32_t front_matter_end(std::string_view text);

// A finding of rule "skill" (for the other skill checks too).
analyzers::Finding skill_finding(analyzers::Severity severity, const std::string& file, uint32_t line,
                                 uint32_t column, uint32_t length, std::string message);

// Characters (UTF-8 code points) in `text`: the specification's limits count characters.
size_t utf8_length(std::string_view text);

}  // namespace kl::guidance
