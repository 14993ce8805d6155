#include "cli/lint_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "analyzers/isolation/failure_finding.h"
#include "analyzers/isolation/isolated_analyzer.h"
#include "analyzers/rules/rule_catalog.h"
#include "cli/analysis_options.h"
#include "cli/cache_key.h"
#include "cli/header_findings.h"
#include "cli/lint_targets.h"
#include "cli/report.h"
#include "cli/result_cache.h"
#include "guidance/guidance_links.h"
#include "support/fs_paths.h"

namespace kl::cli {
namespace {

// A file with NUL bytes in its first 8 KB is not source text; saying so beats 1,000 clang errors.
bool looks_binary(const std::string& text) {
  return text.find('\0') < std::min<size_t>(text.size(), 8192);
}

analyzers::Finding input_problem(const std::string& file, std::string message) {
  analyzers::Finding f;
  f.rule_id = std::string(analyzers::kFrontend);
  f.severity = analyzers::Severity::Error;
  f.location.file = file;
  f.message = std::move(message);
  return f;
}

// Where the files are analysed: worker processes, or this process with --no-isolation.
class LintAnalyser {
 public:
  LintAnalyser(const LintOptions& options, unsigned jobs) {
    if (options.in_process) {
      local_ = std::make_unique<analyzers::Analyzer>(options.settings);
    } else {
      analyzers::IsolationOptions isolation;
      isolation.workers = jobs;
      isolation.timeout = options.timeout;
      isolated_ = std::make_unique<analyzers::IsolatedAnalyzer>(options.settings, isolation);
    }
  }
  analyzers::FileAnalysis source(const std::filesystem::path& file, const std::string& text) {
    return isolated_ ? isolated_->analyze_source(file, text) : local_->analyze_source(file, text);
  }
  std::vector<analyzers::Finding> build_toml(const std::filesystem::path& file, const std::string& text) {
    return isolated_ ? isolated_->analyze_build_toml(file, text).findings : local_->analyze_build_toml(file, text);
  }

 private:
  std::unique_ptr<analyzers::IsolatedAnalyzer> isolated_;
  std::unique_ptr<analyzers::Analyzer> local_;
};

// Analyses `target` (its text in result.text) into `result`; true when the result may be
// cached: the analysis finished (not cancelled, not failed, no exception).
bool analyse_text(LintAnalyser& analyzer, const LintTarget& target, FileResult& result, AnalysisRecord& record) {
  try {
    if (target.kind == TargetKind::BuildToml) {
      record.is_build_toml = true;
      result.findings = analyzer.build_toml(target.path, result.text);
    } else {
      analyzers::FileAnalysis analysis = analyzer.source(target.path, result.text);
      result.findings = std::move(analysis.findings);
      result.kernels = std::move(analysis.coverage);
      record.inputs = std::move(analysis.inputs);
      if (analysis.cancelled) return false;
    }
  } catch (const std::exception& e) {
    result.findings.push_back(analyzers::analysis_failure_finding(result.path, std::string("internal error (") + e.what() + ")"));
    return false;
  }
  return std::none_of(result.findings.begin(), result.findings.end(), analyzers::is_analysis_failure);
}

// One target's result: from `cache` when it holds one for this text and nothing the analysis
// read has changed (then no worker is asked), else analysed, and kept in `cache` when it may be.
FileResult analyse_one(LintAnalyser& analyzer, ResultCache* cache, const LintTarget& target) {
  FileResult result;
  result.path = target.path.string();
  auto text = read_file_text(target.path);
  if (!text) {
    result.findings.push_back(input_problem(result.path, "cannot read the file"));
    return result;
  }
  if (looks_binary(*text)) {
    result.findings.push_back(input_problem(result.path, "binary data, not source text: skipped"));
    return result;
  }
  result.text = *text;
  const std::filesystem::path absolute = absolute_normal(target.path);
  if (cache) {
    if (std::optional<CachedResult> hit = cache->lookup(absolute, result.text)) {
      result.findings = std::move(hit->findings);
      result.kernels = std::move(hit->kernels);
      return result;
    }
  }
  AnalysisRecord record;
  record.started_ns = analysis_clock_ns();
  if (analyse_text(analyzer, target, result, record) && cache)
    cache->store(absolute, result.text, CachedResult{result.findings, result.kernels}, record);
  return result;
}

// The cache the options ask for: null with --no-cache, or when its folder cannot be made (the
// run goes on uncached; a cache is never a reason to fail a lint).
std::unique_ptr<ResultCache> open_result_cache(const LintOptions& options) {
  if (!options.use_cache) return nullptr;
  std::filesystem::path root = options.cache_dir.empty() ? default_cache_root() : std::filesystem::path(options.cache_dir);
  return ResultCache::open(root, binary_identity(KERNEL_LSP_VERSION), settings_key(options.settings),
                           options.settings.use_compile_commands);
}

// What `lint`'s options hold as parsed; LintOptions is made from it once the command runs.
struct LintCommandValues {
  LintOptions lint;
  std::string format = "text", severity = "info", color = "auto";
  double timeout_seconds = 300;
  AnalysisOptionValues analysis;
};

ReportFormat report_format(const std::string& format) {
  return format == "json"     ? ReportFormat::Json
         : format == "sarif"  ? ReportFormat::Sarif
         : format == "github" ? ReportFormat::Github
                              : ReportFormat::Text;
}

int run_lint_command(LintCommandValues& values) {
  auto settings = analysis_settings(values.analysis, std::cerr);
  if (!settings) return 2;
  LintOptions& lint = values.lint;
  lint.settings = *settings;
  lint.timeout = std::chrono::milliseconds(static_cast<int64_t>(values.timeout_seconds * 1000));
  lint.format = report_format(values.format);
  if (!lint.docs_base_url.empty())
    if (std::string problem = guidance::docs_base_problem(lint.docs_base_url); !problem.empty()) {
      std::cerr << "kernel-lsp: --docs-base-url: " << problem << "\n";
      return 2;
    }
  analyzers::parse_severity(values.severity, lint.threshold);
  // Colour only for a person: text to a terminal, unless asked for.
  lint.color = values.color == "always" ||
               (values.color == "auto" && isatty(STDOUT_FILENO) && lint.format == ReportFormat::Text);
  return run_lint(lint, std::cout, std::cerr);
}

}  // namespace

RegisteredCommand add_lint_command(CLI::App& app) {
  auto values = std::make_shared<LintCommandValues>();
  LintOptions& lint = values->lint;
  auto* lint_command = app.add_subcommand("lint", "Lint .cu/.cuh files and build.toml (files or folders)");
  lint_command->add_option("paths", lint.paths, "Files or folders")->required();
  lint_command->add_option("--format", values->format, "text | json | sarif | github")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  lint_command
      ->add_option("--severity", values->severity, "Report findings at or above: error | warning | info")
      ->check(CLI::IsMember({"error", "warning", "info"}));
  lint_command->add_option("-j,--jobs", lint.jobs, "Files analysed in parallel (default: one per core)");
  lint_command->add_option("--color", values->color, "auto | always | never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  lint_command
      ->add_option("--timeout", values->timeout_seconds,
                   "Seconds one file's analysis may take before it is stopped and reported (default 300)")
      ->check(CLI::PositiveNumber);
  lint_command->add_flag("--no-cache", [&lint](int64_t) { lint.use_cache = false; },
                         "Analyse every file, neither reading nor writing the result cache");
  lint_command->add_option("--cache-dir", lint.cache_dir,
                           "The result cache's folder (default: $KERNEL_LSP_CACHE_DIR, else "
                           "$XDG_CACHE_HOME/kernel-lsp/lint, else ~/.cache/kernel-lsp/lint)");
  lint_command->add_option("--docs-base-url", lint.docs_base_url,
                           "Link each rule's guidance page (JSON help_uri, SARIF helpUri) as URL/<page> "
                           "(URL: a published copy of skills/cuda-kernels), or through a template with "
                           "{page} or {id}; default: the installed page, as a file: URI");
  lint_command->add_flag(
      "--no-isolation", lint.in_process,
      "Analyse in this process instead of worker processes (for debugging: a crash then ends the run)");
  add_analysis_options(*lint_command, values->analysis);
  return {lint_command, [values] { return run_lint_command(*values); }};
}

int run_lint(const LintOptions& options, std::ostream& out, std::ostream& err) {
  auto started = std::chrono::steady_clock::now();
  LintTargets targets = collect_lint_targets(options.paths);
  for (const auto& problem : targets.problems) err << "kernel-lsp: " << problem.path << ": " << problem.message << "\n";
  if (!targets.problems.empty()) return 2;
  if (targets.targets.empty()) {
    err << "kernel-lsp: no .cu, .cuh or build.toml files under the given paths\n";
    return 2;
  }

  std::vector<FileResult> results(targets.targets.size());
  std::atomic<size_t> next{0};
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, static_cast<unsigned>(targets.targets.size()));
  LintAnalyser analyzer(options, jobs);  // its worker processes start on first use
  std::unique_ptr<ResultCache> cache = open_result_cache(options);
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < jobs; ++i) {
    workers.emplace_back([&] {
      for (size_t index = next++; index < targets.targets.size(); index = next++)
        results[index] = analyse_one(analyzer, cache.get(), targets.targets[index]);
    });
  }
  for (auto& w : workers) w.join();

  report_shared_findings_once(results);
  LintReport report;
  report.files_analysed = results.size();
  bool failing = false;
  size_t failed_files = 0;
  for (auto& result : results) {
    std::vector<analyzers::Finding> kept;
    bool failed = std::any_of(result.findings.begin(), result.findings.end(), analyzers::is_analysis_failure);
    if (failed) ++failed_files;
    result.analysis_failed = failed;
    for (auto& f : result.findings) {
      if (static_cast<int>(f.severity) > static_cast<int>(options.threshold)) continue;
      kept.push_back(std::move(f));
    }
    // Notes (missing headers, partial parses) are shown but never fail a CI job.
    for (const auto& f : kept)
      if (f.severity == analyzers::Severity::Error || f.severity == analyzers::Severity::Warning) failing = true;
    result.findings = std::move(kept);
    report.files.push_back(std::move(result));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const guidance::GuidanceLinks links = guidance::GuidanceLinks::for_setting(options.docs_base_url);
  switch (options.format) {
    case ReportFormat::Text: write_text_report(report, out, options.color); break;
    case ReportFormat::Json:
      write_json_report(report, out, links);
      break;
    case ReportFormat::Sarif:
      write_sarif_report(report, out, links);
      break;
    case ReportFormat::Github:
      write_github_report(report, out);
      err << summary_line(report) << "\n";
      break;
  }
  out.flush();
  if (!out) {
    err << "kernel-lsp: could not write the report\n";
    return 2;
  }
  if (failed_files > 0) {
    err << "kernel-lsp: the analysis of " << failed_files << " file" << (failed_files == 1 ? "" : "s")
        << " failed (reported as `frontend` errors above); the other files' results are complete\n";
    return 2;
  }
  return failing ? 1 : 0;
}

}  // namespace kl::cli
