#pragma once
// Builds the CUDA sources of a kernel project the way kernel-builder would — one
// `-gencode=arch=compute_XY,code=sm_XY` per capability of each [kernel.*] section, with its
// cuda-flags and include folders — and collects each kernel's resource usage. The torch
// extension itself is built by the project's Python tooling when torch is installed
// (kernels/tools/build_local.py); that step is optional and reported separately.
//
// Thread-safety: one build per ProjectBuilder call; compiles run on `jobs` threads. Progress
// and cancellation go through the callbacks, so the server can show $/progress and stop it.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "analyzers/finding.h"
#include "runner/resource_usage.h"
#include "support/cancellation.h"

namespace kl::runner {

struct CompileUnit {
  std::string kernel_section;  // [kernel.<name>]
  std::filesystem::path source;
  std::string capability;      // "9.0a"
  bool ok = false;
  bool skipped = false;        // the toolkit cannot target this capability
  std::string compiler_output; // errors and warnings, for people
  std::vector<KernelResources> kernels;
  double seconds = 0;
};

struct BuildReport {
  std::filesystem::path project;
  std::vector<analyzers::Finding> build_toml_problems;  // errors stop the build
  std::vector<CompileUnit> units;
  bool ok = false;
};

struct BuildRequest {
  std::filesystem::path project;  // folder with build.toml
  std::filesystem::path nvcc;     // empty: find the toolkit as the analyzers do
  std::vector<std::string> only_capabilities;  // empty: all of build.toml's
  unsigned jobs = 0;
  const CancellationToken* cancel = nullptr;
  std::function<void(const std::string&, int percent)> on_progress;
};

BuildReport build_project(const BuildRequest& request);

// A table for people: one row per kernel and target with registers, smem, spills.
std::string format_build_report(const BuildReport& report);

}  // namespace kl::runner
