#pragma once
// `kernel-lsp snippets ...`: the snippet data (snippets/*.toml) for editors.
//   snippets list [--json]
//   snippets export --format vscode|neovim|json [--output PATH]
//     vscode: a .code-snippets JSON file (PATH = the file; stdout without --output)
//     neovim: a VS Code-style snippet package for LuaSnip's from_vscode loader (PATH = a folder
//             that receives package.json, cuda.json, cpp.json, python.json, toml.json; without
//             --output, one JSON object of file name → content on stdout)
//     json:   {"snippets": [...]} with bodies and their default expansions, for scripts/agents
// Exit codes: 0 success, 2 usage, missing snippets or I/O error.
#include <CLI/CLI.hpp>

#include "cli/registered_command.h"

namespace kl::cli {

RegisteredCommand add_snippets_command(CLI::App& app);

}  // namespace kl::cli
