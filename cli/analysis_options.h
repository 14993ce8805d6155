#pragma once
// The options of the subcommands that analyse sources (lint, check): where the CUDA toolkit is,
// the capabilities that replace build.toml's, extra clang flags. Each subcommand owns its
// values; they become AnalysisSettings only after parsing, when the subcommand runs.
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/pipeline/analysis.h"

namespace kl::cli {

struct AnalysisOptionValues {
  std::string cuda_path;
  std::string archs_text;  // --arch, comma-separated
  std::vector<std::string> extra_flags;
  std::vector<std::string> torch_include_path;
  std::vector<std::string> cutlass_path;
  bool no_shared_pch = false;
};

// Adds --cuda-path, --arch, --extra-flag and --torch-include-path to `command`, bound to `values`.
void add_analysis_options(CLI::App& command, AnalysisOptionValues& values);

// The settings the values describe; nullopt after writing "kernel-lsp: --arch: ..." to `err`
// when --arch names something that is not a compute capability (the caller exits 2).
std::optional<analyzers::AnalysisSettings> analysis_settings(const AnalysisOptionValues& values,
                                                             std::ostream& err);

}  // namespace kl::cli
