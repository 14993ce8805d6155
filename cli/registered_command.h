#pragma once
// A subcommand as the registry (cli/subcommands.cpp) sees it: the CLI::App that
// `add_<name>_command(app)` added, its options bound to state the `run` closure owns, and what
// runs when it was the one parsed. The registry keeps it alive until it has run.
#include <CLI/CLI.hpp>
#include <functional>

namespace kl::cli {

struct RegisteredCommand {
  CLI::App* command = nullptr;
  std::function<int()> run;  // runs whichever of its subcommands was parsed; the exit code
};

}  // namespace kl::cli
