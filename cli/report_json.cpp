#include <nlohmann/json.hpp>

#include "analyzers/isolation/failure_finding.h"
#include "cli/report.h"

namespace kl::cli {
namespace {

// 1-based lines and columns, as people and most tools count (ruff's JSON does the same).
nlohmann::json location_json(const analyzers::Location& location) {
  return {{"file", display_path(location.file)},
          {"line", location.range.start.line + 1},
          {"column", location.range.start.column + 1},
          {"end_line", location.range.end.line + 1},
          {"end_column", location.range.end.column + 1}};
}

// The summary's coverage counts (see analyzers/pipeline/coverage.h for what each one counts):
// how much of the code the rules could see, so that "no findings" can be told from "nothing
// judged".
struct CoverageTotals {
  size_t kernels = 0, kernels_without_code = 0, kernels_with_global_accesses = 0, global_accesses = 0, unjudged = 0,
         shared_accesses = 0, shared_unjudged = 0, files_failed = 0;
};

CoverageTotals coverage_totals(const LintReport& report) {
  CoverageTotals totals;
  for (const auto& file : report.files) {
    if (file.analysis_failed) ++totals.files_failed;
    for (const auto& kernel : file.kernels) {
      ++totals.kernels;
      if (!kernel.has_code) ++totals.kernels_without_code;
      if (kernel.global_accesses() > 0) ++totals.kernels_with_global_accesses;
      totals.global_accesses += kernel.global_accesses();
      totals.unjudged += kernel.unjudged;
      totals.shared_accesses += kernel.shared_accesses;
      totals.shared_unjudged += kernel.shared_unjudged;
    }
  }
  return totals;
}

}  // namespace

void write_json_report(const LintReport& report, std::ostream& out, const guidance::GuidanceLinks& links) {
  nlohmann::json findings = nlohmann::json::array();
  size_t failures = 0;
  for (const auto& file : report.files) {
    for (const auto& f : file.findings) {
      if (analyzers::is_analysis_failure(f)) ++failures;
      nlohmann::json item = location_json(f.location);
      item["rule"] = f.rule_id;
      item["severity"] = analyzers::severity_name(f.severity);
      item["message"] = f.message;
      if (std::string link = links.help_uri_for(f.rule_id); !link.empty()) item["help_uri"] = std::move(link);
      item["notes"] = nlohmann::json::array();
      for (const auto& note : f.notes) {
        nlohmann::json n = location_json(note.location);
        n["message"] = note.message;
        item["notes"].push_back(n);
      }
      item["fixes"] = nlohmann::json::array();
      for (const auto& fix : f.fixes) {
        nlohmann::json edits = nlohmann::json::array();
        for (const auto& e : fix.edits) {
          nlohmann::json edit = location_json({e.file, e.range});
          edit["new_text"] = e.new_text;
          edits.push_back(edit);
        }
        item["fixes"].push_back({{"title", fix.title}, {"edits", edits}});
      }
      findings.push_back(item);
    }
  }
  CoverageTotals coverage = coverage_totals(report);
  nlohmann::json doc = {{"tool", "kernel-lsp"},
                        {"version", KERNEL_LSP_VERSION},
                        {"findings", findings},
                        {"summary", {{"files_analysed", report.files_analysed},
                                     {"findings", findings.size()},
                                     {"analysis_failures", failures},
                                     {"files_failed", coverage.files_failed},
                                     {"kernels", coverage.kernels},
                                     {"kernels_without_code", coverage.kernels_without_code},
                                     {"kernels_with_global_accesses", coverage.kernels_with_global_accesses},
                                     {"global_accesses", coverage.global_accesses},
                                     {"accesses_unjudged", coverage.unjudged},
                                     {"shared_accesses", coverage.shared_accesses},
                                     {"shared_accesses_unjudged", coverage.shared_unjudged},
                                     {"seconds", report.seconds}}}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace kl::cli
