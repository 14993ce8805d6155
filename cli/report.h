#pragma once
// Writing lint results for people and machines: compiler-style text, JSON, SARIF 2.1.0 and
// GitHub workflow annotations. One function per format, each in its own file; all take the same
// LintReport so the CLI's choice of format changes nothing else.
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/pipeline/coverage.h"
#include "guidance/guidance_links.h"

namespace kl::cli {

struct FileResult {
  std::string path;     // as shown to the user (relative to the working directory when inside it)
  std::string text;     // the file's content, for source lines under text findings
  std::vector<analyzers::Finding> findings;
  std::vector<analyzers::KernelCoverage> kernels;  // per kernel as written (none for build.toml)
  bool analysis_failed = false;  // the analysis did not finish: an analysis_failure_finding stands for it
};

struct LintReport {
  std::vector<FileResult> files;   // every file analysed, findings already filtered
  size_t files_analysed = 0;
  double seconds = 0;
};

// Shown path for an absolute one: relative to the working directory when inside it.
std::string display_path(const std::string& path);

void write_text_report(const LintReport& report, std::ostream& out, bool color);
// JSON's help_uri and SARIF's helpUri are the rules' guidance pages as `links` names them (left
// out where a rule has no page to link to).
void write_json_report(const LintReport& report, std::ostream& out, const guidance::GuidanceLinks& links);
void write_sarif_report(const LintReport& report, std::ostream& out, const guidance::GuidanceLinks& links);
void write_github_report(const LintReport& report, std::ostream& out);

// "3 errors, 1 warning in 2 files (12 files analysed in 4.1 s)"
std::string summary_line(const LintReport& report);

}  // namespace kl::cli
