#pragma once
// Runs a kernel project's benchmark and writes its report (runner/bench_report.h). Two
// conventions (runner/bench_convention.h): kernel-lsp's (<project>/benchmarks/benchmark.py --json)
// and the Hugging Face `kernels` library's (kernels.benchmark.Benchmark subclasses, run by
// runner/scripts/run_kernels_benchmarks.py against the kernel built into kernel-builder's
// build/<variant>/ layout). Where it runs:
//
//   local   when `python` imports torch and torch sees a CUDA GPU (runner/scripts/probe_machine.py)
//           and no runner is forced: the extension is built with kernel-lsp's local builder
//           (kernels/tools/build_local.py, no Nix) into `build_dir` (kernels' convention: its
//           variant into <project>/build/, or <build_dir>/<name>/), then the benchmark runs.
//   runner  otherwise, when `runner_command` is set (or always, with `force_runner`): any command
//           that runs a shell script from its standard input on a GPU machine.
//   neither an Error that says what this machine lacks and names both ways out; nothing is written.
//
// The runner protocol (docs/BENCH_RUNNER.md):
//   kernel-lsp runs `/bin/sh -c RUNNER_COMMAND` and writes to its standard input one
//   self-contained POSIX sh script (runner/scripts/bench_on_runner.sh, filled in), then closes it.
//   So `ssh gpu-box sh`, `srun --gres=gpu:1 sh`, `kubectl exec -i pod -- sh`, `docker exec -i ctr
//   sh` are runners. The script carries two base64 tar.gz archives: the project folder (without
//   __pycache__, .git, build/ and its report folder) and kernel-lsp's files it needs (the builder
//   with its shared headers and kernel-builder's defaults, the probe, the `kernels` convention's
//   driver), laid out as kernel-lsp's resources are. It unpacks them into a temporary folder,
//   probes the machine with ${KERNEL_LSP_PYTHON:-python3}, builds, runs the benchmark in the
//   project's convention, and removes the folder on exit. What it prints:
//     ::kernel-lsp:: stage <checking the machine|building the extension|running the benchmark>
//     ::kernel-lsp:: machine {"gpu": ..., "torch": ...}       (one line of JSON)
//     ::kernel-lsp:: results begin
//     { the benchmark's JSON, bench_util.Recorder's format }
//     ::kernel-lsp:: results end
//   The results are the text between the last "results begin" line and the "results end" after
//   it (carriage returns ignored). Everything else is the benchmark's own output and is streamed
//   to `on_output`. A runner that exits non-zero, or prints no results, fails the benchmark with
//   the tail of its output; a stop through `cancel` ends the runner command's process group.
//
// Blocks for the whole run (minutes); call it off the thread that must stay responsive.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "runner/bench_convention.h"
#include "runner/bench_results.h"
#include "support/cancellation.h"
#include "support/result.h"

namespace kl::runner {

// The stages `on_progress` reports, in order, with the percentage each starts at.
inline constexpr const char* kStageChecking = "checking the machine";    // 0
inline constexpr const char* kStageBuilding = "building the extension";  // 10
inline constexpr const char* kStageRunning = "running the benchmark";    // 40
inline constexpr const char* kStageReporting = "writing the report";     // 95

struct BenchRequest {
  std::filesystem::path project;
  std::filesystem::path build_dir;    // local builds; default: <project>/../build
  std::filesystem::path json_output;  // also write the raw results here; empty: don't
  std::filesystem::path report_dir;   // default: <project>/benchmarks/reports
  std::string python = "python3";     // local runs, and the first choice for the report's plot
  std::string runner_command;         // empty: no runner
  bool force_runner = false;          // use the runner even when this machine could benchmark
  BenchConvention convention = BenchConvention::kAuto;
  const CancellationToken* cancel = nullptr;
  std::function<bool()> should_stop;                // polled beside `cancel` (a request's own cancellation)
  std::function<void(std::string_view)> on_output;  // streamed output
  std::function<void(const std::string& stage, int percent)> on_progress;  // kStage*, then 100
};

struct BenchOutcome {
  int exit_code = 0;    // 0: results parsed and report written
  std::string failure;  // why it failed, with the tail of the output; empty on success
  std::string where;    // "local" or "runner"
  std::string output;   // everything the build and the benchmark printed
  std::optional<BenchResults> results;
  std::filesystem::path report;  // report.md, once written
  BenchConvention convention = BenchConvention::kKernelLsp;  // the one the run followed
  // Workloads where our kernel failed or did not match its reference (rows of ours with an
  // error); the report shows them and a caller should exit non-zero.
  int failed_workloads = 0;
};

// An Error when the benchmark cannot run at all (no benchmark in either convention; neither a usable
// GPU here nor a runner; a runner that cannot be started; kernel-lsp's resources missing):
// nothing is written then. A run that started and failed (build, benchmark, runner, unreadable
// results) is an outcome with a non-zero exit code and `failure`; only a successful run writes
// the report and `json_output`.
Result<BenchOutcome> run_benchmark(const BenchRequest& request);

// The script a runner receives on stdin for `project`, run in `convention` (kKernelLsp or
// kKernels) (exposed for tests and docs).
Result<std::string> runner_script(const std::filesystem::path& project, const std::filesystem::path& report_dir,
                                  BenchConvention convention = BenchConvention::kKernelLsp);

// The results between the markers in a runner's output, nullopt when there are none.
std::optional<std::string> results_between_markers(std::string_view output);

}  // namespace kl::runner
