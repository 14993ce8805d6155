// Which benchmark convention a project follows (runner/bench_convention.h), read from the text of
// its benchmarks/benchmark*.py: kernel-lsp's (--json), the kernels library's (Benchmark classes),
// both (the reference kernels), neither; and what `auto` and an explicit choice make of each.
#include "runner/bench_convention.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/unit/scratch_tree.h"

namespace {

using kl::runner::BenchConvention;
namespace fs = std::filesystem;

const char* kOwnScript = "import argparse\nap = argparse.ArgumentParser()\nap.add_argument(\"--json\")\n";
const char* kUpstreamScript =
    "import torch\nfrom kernels.benchmark import Benchmark\n\n\nclass Relu(Benchmark):\n"
    "    def benchmark_base(self):\n        pass\n";
// activation's: a subclass of a class the library ships
const char* kUpstreamLibraryClass =
    "from kernels.benchmarks import SiluAndMulBenchmark\n\n\nclass SiluWorkloads(SiluAndMulBenchmark):\n    "
    "pass\n";

}  // namespace

TEST_CASE("scripts are sorted into the two conventions") {
  kl::testing::ScratchTree tree("kl-bench-convention");
  SECTION("kernel-lsp's") {
    tree.write("p/benchmarks/benchmark.py", kOwnScript);
    auto found = kl::runner::scan_bench_scripts(tree.root() / "p");
    CHECK(found.kernel_lsp);
    CHECK_FALSE(found.kernels);
    CHECK(*kl::runner::choose_bench_convention(tree.root() / "p", BenchConvention::kAuto) ==
          BenchConvention::kKernelLsp);
    auto refused = kl::runner::choose_bench_convention(tree.root() / "p", BenchConvention::kKernels);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().describe().find("kernels.benchmark.Benchmark") != std::string::npos);
  }
  SECTION("the kernels library's, in any benchmark*.py") {
    tree.write("p/benchmarks/benchmark_relu.py", kUpstreamScript);
    tree.write("p/benchmarks/helpers.py", kOwnScript);  // not a benchmark script
    auto found = kl::runner::scan_bench_scripts(tree.root() / "p");
    CHECK(found.kernels);
    CHECK_FALSE(found.kernel_lsp);
    CHECK(*kl::runner::choose_bench_convention(tree.root() / "p", BenchConvention::kAuto) ==
          BenchConvention::kKernels);
    CHECK_FALSE(kl::runner::choose_bench_convention(tree.root() / "p", BenchConvention::kKernelLsp));
  }
  SECTION("a subclass of a class of kernels.benchmarks") {
    tree.write("p/benchmarks/benchmark.py", kUpstreamLibraryClass);
    CHECK(kl::runner::scan_bench_scripts(tree.root() / "p").kernels);
  }
  SECTION("both: auto takes kernel-lsp's, each can be asked for") {
    tree.write("p/benchmarks/benchmark.py", std::string(kOwnScript) + kUpstreamScript);
    CHECK(*kl::runner::choose_bench_convention(tree.root() / "p", BenchConvention::kAuto) ==
          BenchConvention::kKernelLsp);
    CHECK(*kl::runner::choose_bench_convention(tree.root() / "p", BenchConvention::kKernels) ==
          BenchConvention::kKernels);
  }
  SECTION("neither: the error names what each convention needs") {
    tree.write("p/benchmarks/benchmark.py", "print('timing by hand')\nclass Helper(object):\n    pass\n");
    auto refused = kl::runner::choose_bench_convention(tree.root() / "p", BenchConvention::kAuto);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().describe().find("--json") != std::string::npos);
    CHECK(refused.error().describe().find("Benchmark") != std::string::npos);
    CHECK_FALSE(kl::runner::choose_bench_convention(tree.root() / "missing", BenchConvention::kAuto));
  }
}

TEST_CASE("the reference kernels follow both conventions") {
  // Every reference kernel: each project under kernels/ with a build.toml.
  size_t projects = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(KL_SOURCE_DIR) / "kernels")) {
    if (!fs::is_regular_file(entry.path() / "build.toml")) continue;
    ++projects;
    auto found = kl::runner::scan_bench_scripts(entry.path());
    INFO(entry.path().string());
    CHECK(found.kernel_lsp);
    CHECK(found.kernels);
  }
  CHECK(projects >= 4);
}

TEST_CASE("convention names round-trip") {
  for (auto convention : {BenchConvention::kAuto, BenchConvention::kKernelLsp, BenchConvention::kKernels})
    CHECK(kl::runner::parse_bench_convention(kl::runner::bench_convention_name(convention)) == convention);
  CHECK_FALSE(kl::runner::parse_bench_convention("nvbench"));
}
