#pragma once
// The one list of subcommands (lint, check, build, bench, skills, snippets, clangd-config). Each
// lives in its own file and registers its options on `app` (`add_<name>_command`); main.cpp only
// builds the app, registers, parses and runs what was parsed. `serve` is main's own: only main.cpp
// reaches the language server.
#include <CLI/CLI.hpp>

namespace kl::cli {

// Registers every subcommand, in the order `--help` lists them.
void register_subcommands(CLI::App& app);
// Runs the subcommand that was parsed; 2 when none was.
int run_registered_subcommand(CLI::App& app);

}  // namespace kl::cli
