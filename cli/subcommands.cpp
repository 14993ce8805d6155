#include "cli/subcommands.h"

#include <vector>

#include "cli/bench_command.h"
#include "cli/build_command.h"
#include "cli/check_command.h"
#include "cli/clangd_config_command.h"
#include "cli/lint_command.h"
#include "cli/registered_command.h"
#include "cli/skills_command.h"
#include "cli/snippets_command.h"
#include "cli/test_command.h"

namespace kl::cli {
namespace {

std::vector<RegisteredCommand>& registry() {
  static std::vector<RegisteredCommand> entries;
  return entries;
}

}  // namespace

void register_subcommands(CLI::App& app) {
  // A braced list is evaluated left to right: this is the order of `--help`.
  for (RegisteredCommand& command : std::vector<RegisteredCommand>{
           add_lint_command(app), add_check_command(app), add_build_command(app), add_bench_command(app), add_test_command(app),
           add_skills_command(app), add_snippets_command(app), add_clangd_config_command(app)})
    registry().push_back(std::move(command));
}

int run_registered_subcommand(CLI::App& app) {
  (void)app;
  for (const RegisteredCommand& entry : registry())
    if (entry.command->parsed()) return entry.run();
  return 2;
}

}  // namespace kl::cli
