#pragma once
// Which files `kernel-lsp lint PATH...` analyses: files as named (CUDA and C++ sources, the kinds
// of support/file_kinds.h), folders searched for .cu, .cuh (any case) and build.toml (hidden
// folders and node_modules skipped), and for every source the build.toml that governs it, so
// that its arch problems are reported too.
#include <filesystem>
#include <string>
#include <vector>

namespace kl::cli {

enum class TargetKind { CudaSource, BuildToml };

struct LintTarget {
  std::filesystem::path path;  // absolute, normalised
  TargetKind kind;
};

struct TargetProblem {
  std::string path;
  std::string message;
};

struct LintTargets {
  std::vector<LintTarget> targets;
  std::vector<TargetProblem> problems;  // paths that do not exist or are not lintable
};

LintTargets collect_lint_targets(const std::vector<std::string>& paths);
bool is_cuda_source_name(const std::filesystem::path& path);

}  // namespace kl::cli
