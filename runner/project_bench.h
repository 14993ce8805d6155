#pragma once
// Runs a kernel project's benchmark: builds the torch extension with the bundled local builder
// (kernels/tools/build_local.py, no Nix) and runs <project>/benchmarks/benchmark.py with the
// build on PYTHONPATH, streaming its output. Needs python3 with torch and a CUDA GPU; says so
// plainly when they are missing.
#include <filesystem>
#include <functional>
#include <string>

#include "support/cancellation.h"
#include "support/result.h"

namespace kl::runner {

struct BenchRequest {
  std::filesystem::path project;
  std::filesystem::path build_dir;          // default: <project>/../build
  std::filesystem::path json_output;        // empty: no JSON file
  std::string python = "python3";
  const CancellationToken* cancel = nullptr;
  std::function<void(std::string_view)> on_output;  // streamed benchmark output
};

struct BenchOutcome {
  int exit_code = 0;
  std::string output;
};

// An Error (with the reason) when the machine cannot benchmark: no python3, no torch, no GPU,
// no benchmarks/benchmark.py.
Result<BenchOutcome> run_benchmark(const BenchRequest& request);

}  // namespace kl::runner
