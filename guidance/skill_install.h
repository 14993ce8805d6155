#pragma once
// Installing a skill where an agent looks for it: the whole skill folder (SKILL.md,
// references/, scripts/ with their execute bits, assets/) copied to
// <agent folder>/<skill name>/. Agent folders, project (relative to a working directory) and
// global (relative to $HOME):
//   claude    .claude/skills      ~/.claude/skills
//   codex     .codex/skills       ~/.codex/skills
//   opencode  .opencode/skills    ~/.config/opencode/skills
// An existing copy with the same files and contents is left alone ("up to date"); a different
// one is replaced only when `force` is set, so a skill someone edited is never lost silently.
// Filesystem only; errors are values.
#include <filesystem>
#include <string>
#include <vector>

#include "support/result.h"

namespace kl::guidance {

enum class SkillAgent { Claude, Codex, OpenCode };


// The folder that holds skills for `agent`: project (under `working_directory`) or global
// (under `home`).
std::filesystem::path agent_skills_folder(SkillAgent agent, bool global,
                                          const std::filesystem::path& working_directory,
                                          const std::filesystem::path& home);

enum class InstallOutcome { Installed, Replaced, UpToDate };

struct InstallReport {
  InstallOutcome outcome = InstallOutcome::Installed;
  std::filesystem::path destination;  // <folder>/<skill name>
  size_t files = 0;                   // regular files in the copy
};

// Copies `skill_folder` to `destination` (the skill's own folder, e.g. ~/.claude/skills/
// cuda-kernels). Error (nothing changed) when `destination` exists, differs and !force, or when
// it exists and is not a folder.
Result<InstallReport> install_skill(const std::filesystem::path& skill_folder,
                                    const std::filesystem::path& destination, bool force);

// True when both trees hold the same relative file paths with the same bytes.
bool same_tree(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace kl::guidance
