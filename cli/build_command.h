#pragma once
// `kernel-lsp build DIR`: compile every CUDA source of a kernel project for every capability of
// its build.toml and report resource usage; with --variant, build the torch extension into
// kernel-builder's build/<variant>/ instead (runner/project_variant.h).
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/registered_command.h"

namespace kl::cli {

struct BuildOptions {
  std::string project;
  std::vector<std::string> capabilities;  // empty: build.toml's
  unsigned jobs = 0;                      // 0: one per core
  std::string format = "text";            // or "json"
  std::vector<std::string> torch_include_path;
  bool variant = false;           // build/<variant>/ for the `kernels` library instead of the report
  std::string python = "python3";
};

// Exit 0 built, 1 a compile failed, 2 not a project, 130 interrupted.
int run_build(const BuildOptions& options, std::ostream& out, std::ostream& err);

// Add `build DIR` with its options to `app`; it runs on stdout and stderr.
RegisteredCommand add_build_command(CLI::App& app);

}  // namespace kl::cli
