#include "cli/subcommands.h"

#include <functional>
#include <vector>

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
  (void)app;
  // skills / snippets / build / bench register here as they are added.
}

int run_registered_subcommand(CLI::App& app) {
  (void)app;
  for (auto& entry : registry())
    if (entry.command->parsed()) return entry.run();
  return 2;
}

}  // namespace kl::cli
