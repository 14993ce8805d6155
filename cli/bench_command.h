#pragma once
// `kernel-lsp bench DIR [--json FILE] [--runner CMD] [--remote] [--report-dir DIR] [--from-json FILE]`:
// benchmark a kernel project here when this machine has a CUDA GPU and torch, else through a
// runner command (--runner, else $KERNEL_LSP_BENCH_RUNNER; --remote uses it even when this
// machine could run), and write the report folder (runner/bench_report.h). --from-json renders
// the report of an existing results file and runs nothing. Prints the report's path last.
// Exit codes: 0 done; 1 the benchmark (build, run, runner, results) failed; 2 it cannot run here
// (no GPU/torch and no runner, not a kernel project, unreadable --from-json file) or bad usage.
#include <iosfwd>
#include <string>

#include "cli/registered_command.h"

namespace kl::cli {

struct BenchOptions {
  std::string project;
  std::string json_output;  // --json
  std::string runner;       // --runner; empty: $KERNEL_LSP_BENCH_RUNNER
  bool remote = false;      // --remote
  std::string report_dir;   // --report-dir; empty: <project>/benchmarks/reports
  std::string from_json;    // --from-json
  std::string convention = "auto";  // --convention: auto, kernel-lsp, kernels
};

int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err);

// Add `bench DIR` with its options to `app`; it runs on stdout and stderr.
RegisteredCommand add_bench_command(CLI::App& app);

}  // namespace kl::cli
