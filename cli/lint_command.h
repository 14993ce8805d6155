#pragma once
// `kernel-lsp lint PATH...`: analyse files in parallel, each in a worker process (so that a
// crash in one file's analysis is that file's error finding, not the run's end), and report.
// Results of unchanged files come from a cache (cli/result_cache.h) unless --no-cache.
// Exit codes: 0 clean, 1 a finding at or above the threshold, 2 usage or internal error (bad
// path, unwritable output, or the analysis of at least one file failed: the report still has
// every file, the failed ones with a `frontend` error).
#include <chrono>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/pipeline/analysis.h"
#include "cli/registered_command.h"

namespace kl::cli {

enum class ReportFormat { Text, Json, Sarif, Github };

struct LintOptions {
  std::vector<std::string> paths;
  ReportFormat format = ReportFormat::Text;
  analyzers::Severity threshold = analyzers::Severity::Information;  // report this and worse
  analyzers::AnalysisSettings settings;
  unsigned jobs = 0;  // 0: one per core
  bool color = false;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};  // per file
  bool in_process = false;  // --no-isolation
  bool use_cache = true;    // --no-cache: false (cli/result_cache.h)
  std::string cache_dir;    // --cache-dir; empty: default_cache_root()
  std::string docs_base_url;  // --docs-base-url; empty: links to the installed guidance pages
};

int run_lint(const LintOptions& options, std::ostream& out, std::ostream& err);

// Adds `lint` and its options to `app`; its run turns them into LintOptions (exit 2 on a bad
// --arch) and calls run_lint on stdout and stderr.
RegisteredCommand add_lint_command(CLI::App& app);

}  // namespace kl::cli
