#include "cli/bench_command.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "runner/bench_report.h"
#include "runner/bench_results.h"
#include "runner/project_bench.h"
#include "support/fs_paths.h"
#include "support/interrupt.h"

namespace kl::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "kernel-lsp bench: ";

fs::path report_dir_of(const BenchOptions& options, const fs::path& project) {
  return options.report_dir.empty() ? project / "benchmarks" / "reports"
                                    : absolute_normal(options.report_dir);
}

// --from-json: the report of a results file that exists already; nothing runs.
int render_from_file(const BenchOptions& options, const fs::path& project, std::ostream& out,
                     std::ostream& err) {
  if (!options.json_output.empty() || !options.runner.empty() || options.remote) {
    err << kPrefix
        << "--from-json renders an existing results file: --json, --runner and --remote do not apply\n";
    return 2;
  }
  auto raw = read_file_text(options.from_json);
  if (!raw) {
    err << kPrefix << "cannot read " << options.from_json << "\n";
    return 2;
  }
  auto results = runner::parse_bench_results(*raw);
  if (!results) {
    err << kPrefix << options.from_json << ": " << results.error().describe() << "\n";
    return 2;
  }
  runner::ReportRequest request{report_dir_of(options, project), project.filename().string(),
                                "rendered from " + absolute_normal(options.from_json).string(), *raw};
  auto report = runner::write_report(*results, request);
  if (!report) {
    err << kPrefix << report.error().describe() << "\n";
    return 1;
  }
  out << report->string() << "\n";
  return 0;
}

}  // namespace

int run_bench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  fs::path project = absolute_normal(options.project);
  if (!options.from_json.empty()) return render_from_file(options, project, out, err);

  auto convention = runner::parse_bench_convention(options.convention);
  if (!convention) {
    err << kPrefix << "--convention must be auto, kernel-lsp or kernels, not '" << options.convention << "'\n";
    return 2;
  }
  runner::BenchRequest request;
  request.project = project;
  request.convention = *convention;
  request.json_output = options.json_output.empty() ? fs::path() : absolute_normal(options.json_output);
  request.report_dir = report_dir_of(options, project);
  request.runner_command = options.runner;
  if (const char* env = std::getenv("KERNEL_LSP_BENCH_RUNNER"); request.runner_command.empty() && env)
    request.runner_command = env;
  request.force_runner = options.remote;
  request.cancel = &interrupt_token();  // Ctrl-C ends the build, the benchmark or the runner
  request.on_output = [&](std::string_view chunk) { out << chunk << std::flush; };
  request.on_progress = [&](const std::string& stage, int percent) {
    if (percent < 100) err << kPrefix << stage << "\n" << std::flush;
  };
  auto outcome = runner::run_benchmark(request);
  if (!outcome) {
    err << kPrefix << outcome.error().describe() << "\n";
    return 2;
  }
  if (outcome->exit_code != 0) {
    err << kPrefix << outcome->failure << "\n";
    return 1;
  }
  out << "\n" << outcome->report.string() << "\n";
  if (outcome->failed_workloads > 0) {
    err << kPrefix << outcome->failed_workloads
        << " benchmark(s) of the project's kernel failed or did not match their reference: see the report\n";
    return 1;
  }
  return 0;
}

RegisteredCommand add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  auto* bench = app.add_subcommand("bench",
                                   "Benchmark the project (here with a CUDA GPU and torch, else through a "
                                   "runner command) and write its report");
  bench->add_option("project", options->project, "Folder with build.toml and benchmarks/")->required();
  bench->add_option("--convention", options->convention,
                    "Benchmark convention: kernel-lsp (benchmarks/benchmark.py --json), kernels (the kernels "
                    "library's Benchmark classes, as `kernels benchmark` runs them) or auto (kernel-lsp's "
                    "where the project has it)")
      ->capture_default_str();
  bench->add_option("--json", options->json_output, "Also write the raw results (JSON) to this file");
  bench->add_option("--runner", options->runner,
                    "Command that runs a shell script from stdin on a GPU machine, e.g. 'ssh gpu-box sh' "
                    "(default: $KERNEL_LSP_BENCH_RUNNER; see docs/BENCH_RUNNER.md)");
  bench->add_flag("--remote", options->remote, "Use the runner even when this machine could benchmark");
  bench->add_option("--report-dir", options->report_dir, "Report folder (default: DIR/benchmarks/reports)");
  bench->add_option("--from-json", options->from_json,
                    "Write the report of an existing results file; runs nothing");
  return {bench, [options] { return run_bench(*options, std::cout, std::cerr); }};
}

}  // namespace kl::cli
