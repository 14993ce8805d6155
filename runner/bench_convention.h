#pragma once
// Which benchmark convention a kernel project's benchmarks/ follows, decided from the scripts'
// text before anything runs:
//
//   kernel-lsp  benchmarks/benchmark.py is a script that takes `--json OUT` and writes
//               kernels/common/bench_util.py's Recorder JSON (ours against eager, torch.compile,
//               Liger, ...). The reference kernels' benchmarks are.
//   kernels     benchmarks/benchmark*.py define subclasses of the Hugging Face `kernels`
//               library's `kernels.benchmark.Benchmark` (setup / benchmark_* / verify_*), what
//               `kernels benchmark` runs; runner/scripts/run_kernels_benchmarks.py runs them.
//
// `auto` takes kernel-lsp's where benchmark.py follows it (its peers are the richer comparison),
// else kernels'. A project may follow both: the reference kernels do, so that `kernels benchmark`
// runs them too.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "support/result.h"

namespace kl::runner {

enum class BenchConvention { kAuto, kKernelLsp, kKernels };

// "auto", "kernel-lsp", "kernels"; nullopt for anything else.
std::optional<BenchConvention> parse_bench_convention(std::string_view text);
std::string_view bench_convention_name(BenchConvention convention);

// What the project's benchmark scripts support.
struct BenchScripts {
  bool kernel_lsp = false;  // benchmarks/benchmark.py takes --json
  bool kernels = false;     // some benchmarks/benchmark*.py defines a kernels.benchmark.Benchmark subclass
};
BenchScripts scan_bench_scripts(const std::filesystem::path& project);

// The convention to run `project` with, `wanted` honoured; an Error, naming what each convention
// needs, when the scripts follow neither or not the one asked for.
Result<BenchConvention> choose_bench_convention(const std::filesystem::path& project, BenchConvention wanted);

}  // namespace kl::runner
