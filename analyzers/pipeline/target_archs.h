#pragma once
// Which target architectures one source file is analysed for, and where that list came from:
// the "project" stage of Analyzer::analyze_source. Internal to the pipeline.
//
// The list comes from the first of: --arch (settings.arch_override), the build.toml that applies
// (the caller's copy, else the nearest one on disk), what the project's own build files declare
// (compile_commands.json, setup.py, CMake, Makefiles, TORCH_CUDA_ARCH_LIST: project/declared_archs.h),
// the configured default archs. A build.toml that is there but does not parse stops the search
// (the project builds with kernel-builder; its archs are that file's to say). When none of them
// says anything, the list is an assumption: the
// most capable arch of kernel-builder's default list for the toolkit's CUDA version (13.0
// without a toolkit), one parse, marked `assumed` so that the arch rules only warn. Capabilities
// that cannot be analysed (unknown, or not targetable by the toolkit) are dropped from the
// targets: arch-unsupported reports them in build.toml, and analysing for them would only repeat
// that.
#include <filesystem>
#include <optional>
#include <vector>

#include "analyzers/frontend/compile_database.h"
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
  // The project build files read for a declaration (when there is no build.toml): what a
  // result cache must watch.
  std::vector<std::filesystem::path> build_files_read;
};

// Reads the build.toml (unless `project` is given) and, for a file that is not a kernel's .cu
// source, the project files that may include it; without a build.toml, the project's build files
// and `compile_flags` (the file's compile_commands.json entry, when the analysis uses one). Never
// fails: an unreadable build.toml counts as none.
TargetArchs select_target_archs(const std::filesystem::path& file, const BuildConfigParse* project,
                                const AnalysisSettings& settings, const CudaToolkit* toolkit,
                                const CompileFlags* compile_flags);

}  // namespace kl::analyzers
