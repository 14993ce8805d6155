#pragma once
// Subcommands beyond lint and check (skills, snippets, build, bench) register here so that
// main.cpp does not grow with each. Each registers its options on `app` and runs when parsed.
#include <CLI/CLI.hpp>

namespace kl::cli {

void register_subcommands(CLI::App& app);
// Runs the subcommand that was parsed; 2 when none of the registered ones was.
int run_registered_subcommand(CLI::App& app);

}  // namespace kl::cli
