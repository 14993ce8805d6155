#pragma once
// `kernel-lsp skills ...`: the skill model (guidance/skill_*) at a terminal.
//   skills list [--json]                 every skill found: bundled, workspace (cwd), user folders
//   skills show NAME [SECTION]           SKILL.md, or one section: heading (case-insensitive
//                                        prefix), else a construct, rule id or topic
//   skills validate DIR                  `file:line:col: severity: message`; exit 1 on errors
//   skills install [--claude] [--codex] [--opencode] [--global] [--dest DIR] [--force]
//                  [--skill NAME]        copy a bundled skill where agents look (default claude,
//                                        project = cwd; --global = $HOME)
// Exit codes: 0 success, 1 invalid skill / refused install / not found, 2 usage or I/O error.
#include <CLI/CLI.hpp>

#include "cli/registered_command.h"

namespace kl::cli {

RegisteredCommand add_skills_command(CLI::App& app);

}  // namespace kl::cli
