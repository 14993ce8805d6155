#pragma once
// Builds the CUDA sources of a kernel project the way kernel-builder would — one
// `-gencode=arch=compute_XY,code=sm_XY` per capability of each [kernel.*] section, with its
// cuda-flags and include folders — and collects each kernel's resource usage. The torch
// extension itself is built by the project's Python tooling when torch is installed
// (kernels/tools/build_local.py); that step is optional and reported separately.
//
// Thread-safety: one build per ProjectBuilder call; compiles run on `jobs` threads. Progress
// and cancellation go through the callbacks, so the server can show $/progress and stop it.
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
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
  std::string compiler_output; // errors and warnings (ptxas' info lines left out)
  bool stopped = false;        // cancelled while it ran
  std::vector<KernelResources> kernels;
  double seconds = 0;
};

struct BuildReport {
  std::filesystem::path project;
  std::vector<analyzers::Finding> build_toml_problems;  // errors stop the build
  std::vector<CompileUnit> units;
  // What every file build.toml lists (sources and headers) held when the build read it, by
  // content hash: a lens compares it with the file now and says when its numbers are stale.
  std::map<std::filesystem::path, std::string> source_hashes;
  // The torch binding is not compiled by this build (it needs torch's headers and Python's);
  // says so, and how to build it. Empty for projects without a [torch] section.
  std::string binding_note;
  // Sections that `depends` on torch include its headers: where they came from, or that none
  // were found (their sources then fail on the first torch include, and this says why).
  std::string torch_note;
  std::chrono::system_clock::time_point started, finished;
  bool cancelled = false;
  bool ok = false;
};

struct BuildRequest {
  std::filesystem::path project;  // folder with build.toml
  std::filesystem::path nvcc;     // empty: find the toolkit as the analyzers do
  std::vector<std::string> only_capabilities;  // empty: all of build.toml's
  std::vector<std::filesystem::path> torch_include_dirs;  // the torchIncludePath setting; empty: look
  unsigned jobs = 0;
  const CancellationToken* cancel = nullptr;
  std::function<bool()> should_stop;  // polled beside `cancel` (a request's own cancellation)
  std::function<void(const std::string&, int percent)> on_progress;
  // Each compile's command and output once it has finished (compiles run in parallel, so a
  // whole unit at a time keeps their lines apart).
  std::function<void(std::string_view)> on_output;
};

BuildReport build_project(const BuildRequest& request);

// Compiles that ran and failed (skipped ones are not failures).
size_t failed_compiles(const BuildReport& report);

// A table for people: one row per kernel and target with registers, smem, spills.
std::string format_build_report(const BuildReport& report);

// "sm_90a" for "9.0a": how ptxas names the target, and how messages name a capability.
std::string target_name(const std::string& capability);

}  // namespace kl::runner
