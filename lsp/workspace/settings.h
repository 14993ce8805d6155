#pragma once
// The user's settings for the server, as plain data: merged from initializationOptions,
// workspace/configuration and workspace/didChangeConfiguration by the LSP layer, turned into
// analyzer settings here. Value type; copy freely.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/pipeline/analysis.h"

namespace kl::lsp {

struct Settings {
  std::optional<std::filesystem::path> cuda_path;
  std::vector<std::string> extra_flags;
  std::vector<std::string> torch_include_path;   // PyTorch's include folders (else found, or the stand-in)
  std::vector<std::string> cutlass_path;         // CUTLASS checkouts (else CUTLASS_PATH, ...)
  std::vector<std::string> default_archs;         // as build.toml writes them: "8.0", "9.0a"
  std::map<std::string, std::string> severities;  // rule id → error|warning|info|hint|off
  std::set<std::string> disabled_rules;
  bool shared_pch = true;  // sharedPch: start parses from the toolkit headers' PCH
  // Server behaviour (not analysis):
  std::optional<uint32_t> debounce_ms;  // fixed debounce; unset = adaptive 50–500 ms
  bool pull_diagnostics = false;        // advertise textDocument/diagnostic
  std::optional<uint32_t> workers;      // concurrent analyses; unset = half the cores, 2–4
  // Seconds one analysis may run before its worker is stopped and the document gets an error
  // diagnostic; unset = 300. Read at initialize.
  std::optional<uint32_t> analysis_timeout_s;
  // Builds and benchmarks, which start processes only when the user asks:
  // workspaceTrusted false (VS Code's untrusted workspace) refuses them; benchRunner is the
  // command that runs a benchmark script on a GPU machine when this one cannot; buildJobs
  // limits parallel nvcc compiles (unset: one per core).
  bool workspace_trusted = true;
  std::string bench_runner;
  std::optional<uint32_t> build_jobs;
  // docsBaseUrl: where diagnostics link the rules' guidance pages (guidance/guidance_links.h);
  // empty = the installed pages, as file: URIs.
  std::string docs_base_url;

  friend bool operator==(const Settings&, const Settings&) = default;
};

struct AnalysisSettingsConversion {
  analyzers::AnalysisSettings settings;
  std::vector<std::string> problems;  // values that were ignored, for a warning to the user
};

// Always sets cache_parses: the server re-analyses the same files on every edit.
AnalysisSettingsConversion to_analysis_settings(const Settings& settings);

}  // namespace kl::lsp
