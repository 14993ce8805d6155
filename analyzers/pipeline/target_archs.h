#pragma once
// Which target architectures one source file is analysed for, and where that list came from:
// the "project" stage of Analyzer::analyze_source. Internal to the pipeline.
//
// The list comes from the first of: --arch (settings.arch_override), the build.toml that applies
// (the caller's copy, else the nearest one on disk), the configured default archs, kernel-builder's
// default list for the toolkit's CUDA version (13.0 without a toolkit). Capabilities that cannot
// be analysed (unknown, or not targetable by the toolkit) are dropped from the targets:
// arch-unsupported reports them in build.toml, and analysing for them would only repeat that.
#include <filesystem>
#include <optional>
#include <vector>

#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/pipeline/analysis.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {

struct TargetArchs {
  // The archs to analyse for (usable, without duplicates, in the order listed), where the list
  // came from, and build.toml's cuda-capabilities array when that list decided.
  ArchSelection selection;
  std::vector<ArchOrigin> origins;  // every arch listed, usable or not, with where it was listed
  std::optional<std::filesystem::path> build_toml;  // the readable build.toml that applies, if any
  // The `include` folders of the build.toml kernels that compile the file (project_locator's
  // kernels_building), whatever decided the archs: the clang command adds them as -I.
  std::vector<std::filesystem::path> include_dirs;
};

// Reads the build.toml (unless `project` is given) and, for a file that is not a kernel's .cu
// source, the project files that may include it; never fails: an unreadable build.toml counts as
// none.
TargetArchs select_target_archs(const std::filesystem::path& file, const BuildConfigParse* project,
                                const AnalysisSettings& settings, const CudaToolkit* toolkit);

}  // namespace kl::analyzers
