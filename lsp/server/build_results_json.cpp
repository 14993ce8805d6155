#include "lsp/server/build_results_json.h"

#include "lsp/server/uri.h"
#include "runner/bench_results.h"
#include "runner/build_report_json.h"

namespace kl::lsp {

json build_result_json(const BuildSnapshot& snapshot) {
  return runner::build_report_json(snapshot.report, snapshot.diagnostics);
}

json bench_result_json(const std::filesystem::path& project, const runner::BenchOutcome& outcome) {
  json result = {{"project", project.string()}, {"where", outcome.where}, {"exitCode", outcome.exit_code}};
  if (!outcome.report.empty()) {
    result["report"] = outcome.report.string();
    result["reportUri"] = path_to_uri(outcome.report);
  }
  if (outcome.results) {
    json rows = runner::to_json(*outcome.results);
    result["results"] = rows;
    result["convention"] = std::string(runner::bench_convention_name(outcome.convention));
    result["failedWorkloads"] = outcome.failed_workloads;
  }
  return result;
}

}  // namespace kl::lsp
