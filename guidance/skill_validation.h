#pragma once
// Checks a skill the way an agent will read it: the front matter (skill_front_matter.h), the
// length of SKILL.md's body (a warning past 500 lines: agents load the whole body when the
// skill applies, so detail belongs in references/), and every relative link in SKILL.md and in
// references/**/*.md (an error when the target does not exist, a warning when it leaves the
// skill's folder, which an installed copy does not carry). Findings use rule id "skill", are
// sorted by file and position, and carry exact 0-based lines and UTF-8 columns.
// Reads the files it checks; thread-compatible (no shared state).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"

namespace kl::guidance {

inline constexpr uint32_t kSkillBodyLineLimit = 500;

// A whole skill folder (the one that holds SKILL.md). A missing SKILL.md is one error.
std::vector<analyzers::Finding> validate_skill_folder(const std::filesystem::path& folder);

// One SKILL.md's text (an editor's unsaved buffer), found at `skill_md` on disk: links are
// resolved against its folder, the name is compared with the folder's name.
std::vector<analyzers::Finding> validate_skill_text(std::string_view text,
                                                    const std::filesystem::path& skill_md);

bool has_errors(const std::vector<analyzers::Finding>& findings);

}  // namespace kl::guidance
