#pragma once
// `kernel-lsp build DIR` (compile every CUDA source of a kernel project for every capability of
// its build.toml, report resource usage) and `kernel-lsp bench DIR` (build the torch extension
// and run the project's benchmark; needs torch and a GPU).
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/registered_command.h"

namespace kl::cli {

int run_build(const std::string& project, const std::vector<std::string>& capabilities, unsigned jobs,
              std::ostream& out, std::ostream& err);
int run_bench(const std::string& project, const std::string& json_output, std::ostream& out, std::ostream& err);

// Add `build DIR` and `bench DIR` with their options to `app`; each runs on stdout and stderr.
RegisteredCommand add_build_command(CLI::App& app);
RegisteredCommand add_bench_command(CLI::App& app);

}  // namespace kl::cli
