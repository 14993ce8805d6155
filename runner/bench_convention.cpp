#include "runner/bench_convention.h"

#include <algorithm>
#include <regex>
#include <vector>

#include "support/fs_paths.h"

namespace kl::runner {
namespace fs = std::filesystem;

namespace {

// benchmarks/benchmark*.py, the files `kernels benchmark` loads, in name order.
std::vector<fs::path> benchmark_scripts(const fs::path& project) {
  std::vector<fs::path> scripts;
  std::error_code ec;
  for (fs::directory_iterator it(project / "benchmarks", ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.starts_with("benchmark") && name.ends_with(".py") && it->is_regular_file(ec))
      scripts.push_back(it->path());
  }
  std::sort(scripts.begin(), scripts.end());
  return scripts;
}

// A class statement whose bases name Benchmark or a class from the library's `kernels.benchmarks`,
// in a file that imports from the `kernels` library's benchmark modules. Text only: the script is
// not run to find out.
bool defines_kernels_benchmark(const std::string& text) {
  static const std::regex imports(
      R"((^|\n)[ \t]*(from[ \t]+kernels\.benchmarks?[ \t]+import|import[ \t]+kernels))");
  static const std::regex subclass(R"((^|\n)class[ \t]+\w+[ \t]*\([^)]*\w[^)]*\)[ \t]*:)");
  return std::regex_search(text, imports) && std::regex_search(text, subclass);
}

// kernel-lsp's protocol: the script reads a --json option.
bool takes_json_option(const std::string& text) {
  return text.find("\"--json\"") != std::string::npos || text.find("'--json'") != std::string::npos;
}

}  // namespace

std::optional<BenchConvention> parse_bench_convention(std::string_view text) {
  if (text == "auto") return BenchConvention::kAuto;
  if (text == "kernel-lsp") return BenchConvention::kKernelLsp;
  if (text == "kernels") return BenchConvention::kKernels;
  return std::nullopt;
}

std::string_view bench_convention_name(BenchConvention convention) {
  switch (convention) {
    case BenchConvention::kAuto:
      return "auto";
    case BenchConvention::kKernelLsp:
      return "kernel-lsp";
    case BenchConvention::kKernels:
      return "kernels";
  }
  return "auto";
}

BenchScripts scan_bench_scripts(const fs::path& project) {
  BenchScripts found;
  for (const fs::path& script : benchmark_scripts(project)) {
    auto text = read_file_text(script);
    if (!text) continue;
    if (script.filename() == "benchmark.py" && takes_json_option(*text)) found.kernel_lsp = true;
    if (defines_kernels_benchmark(*text)) found.kernels = true;
  }
  return found;
}

Result<BenchConvention> choose_bench_convention(const fs::path& project, BenchConvention wanted) {
  BenchScripts scripts = scan_bench_scripts(project);
  const std::string kernel_lsp_needs =
      "kernel-lsp's convention needs benchmarks/benchmark.py taking --json OUT (see "
      "kernels/rmsnorm/benchmarks)";
  const std::string kernels_needs =
      "the kernels library's convention needs benchmarks/benchmark*.py defining kernels.benchmark.Benchmark "
      "subclasses (setup, benchmark_*, verify_*)";
  switch (wanted) {
    case BenchConvention::kKernelLsp:
      if (scripts.kernel_lsp) return BenchConvention::kKernelLsp;
      return make_error("no kernel-lsp benchmark in " + (project / "benchmarks").string() + ": " +
                        kernel_lsp_needs);
    case BenchConvention::kKernels:
      if (scripts.kernels) return BenchConvention::kKernels;
      return make_error("no kernels.benchmark.Benchmark subclass in " + (project / "benchmarks").string() +
                        ": " + kernels_needs);
    case BenchConvention::kAuto:
      if (scripts.kernel_lsp) return BenchConvention::kKernelLsp;
      if (scripts.kernels) return BenchConvention::kKernels;
      return make_error("no benchmark in " + (project / "benchmarks").string() + ": " + kernel_lsp_needs +
                        "; " + kernels_needs);
  }
  return BenchConvention::kKernelLsp;
}

}  // namespace kl::runner
