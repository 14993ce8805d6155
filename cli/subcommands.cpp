#include "cli/subcommands.h"

#include <functional>
#include <vector>

#include "cli/skills_command.h"
#include "cli/snippets_command.h"

namespace kl::cli {
namespace {

struct Registered {
  CLI::App* command;
  std::function<int()> run;
};

std::vector<Registered>& registry() {
  static std::vector<Registered> entries;
  return entries;
}

}  // namespace

void register_subcommands(CLI::App& app) {
  for (const RegisteredCommand& command : {add_skills_command(app), add_snippets_command(app)})
    registry().push_back({command.command, command.run});
}

int run_registered_subcommand(CLI::App& app) {
  (void)app;
  for (auto& entry : registry())
    if (entry.command->parsed()) return entry.run();
  return 2;
}

}  // namespace kl::cli
