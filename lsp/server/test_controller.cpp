#include "lsp/server/test_controller.h"

#include "lsp/protocol/params.h"
#include "lsp/server/build_controller.h"
#include "lsp/server/uri.h"

namespace kl::lsp {
namespace fs = std::filesystem;
namespace {


// `project` (a folder, a URI or a path; a project need not have a build.toml to have tests).
fs::path project_folder(const json& args) {
  std::optional<std::string> given = optional_string_field(args, "project");
  if (!given) throw_invalid_params("expected {\"project\": the project's folder}");
  std::optional<fs::path> path = given->find("://") != std::string::npos ? uri_to_path(*given)
                                                                          : std::optional<fs::path>(fs::path(*given));
  if (!path) throw_invalid_params("not a file URI: " + *given);
  std::error_code ec;
  fs::path p = fs::absolute(*path, ec).lexically_normal();
  if (!fs::is_directory(p, ec)) throw_invalid_params("not a folder: " + p.string());
  return p;
}

std::vector<std::string> tools_of(const json& args) {
  std::vector<std::string> tools;
  const json* list = optional_field(args, "sanitize");
  if (!list) return tools;
  if (list->is_string()) return {list->get<std::string>()};
  if (!list->is_array()) throw_invalid_params("sanitize must be a list such as [\"memcheck\", \"racecheck\"]");
  for (const auto& t : *list) {
    if (!t.is_string()) throw_invalid_params("sanitize must be a list such as [\"memcheck\", \"racecheck\"]");
    tools.push_back(t.get<std::string>());
  }
  return tools;
}

json finding_json(const analyzers::Finding& f) {
  return {{"uri", path_to_uri(f.location.file)},
          {"line", f.location.range.start.line},
          {"severity", analyzers::severity_name(f.severity)},
          {"rule", f.rule_id},
          {"message", f.message}};
}

json outcome_json(const fs::path& project, const runner::TestOutcome& outcome) {
  json runs = json::array();
  for (const auto& r : outcome.runs) {
    json run = {{"tool", r.tool},         {"exitCode", r.exit_code}, {"timedOut", r.timed_out},
                {"reports", r.reports},   {"unplaced", r.unplaced},  {"findings", r.findings},
                {"tests", nullptr}};
    if (r.tests)  // pytest's own count of the run
      run["tests"] = {{"passed", r.tests->passed}, {"failed", r.tests->failed}, {"skipped", r.tests->skipped},
                      {"errors", r.tests->errors}};
    runs.push_back(std::move(run));
  }
  json findings = json::array();
  for (const auto& f : outcome.findings) findings.push_back(finding_json(f));
  return {{"project", project.string()}, {"command", outcome.command}, {"testsFailed", outcome.tests_failed},
          {"cancelled", outcome.cancelled}, {"runs", std::move(runs)}, {"findings", std::move(findings)},
          {"shapeNotes", outcome.shape_notes}};
}

}  // namespace

TestController::TestController(Dispatcher& dispatcher, ProgressReporter& progress, KernelServer& kernel,
                               ProjectBuilds& jobs, std::function<void(const fs::path&)> republish)
    : dispatcher_(dispatcher), progress_(progress), kernel_(kernel), jobs_(jobs), republish_(std::move(republish)) {}

void TestController::test(const json& arguments, const Reply& reply) {
  const json& args = command_arguments(arguments);
  fs::path project = project_folder(args);
  if (!kernel_.settings().workspace_trusted) {
    reply.error(ErrorCode::RequestFailed,
                "kernel-lsp runs no tests in an untrusted workspace (the client set workspaceTrusted to false): "
                "they run the project's code. Trust the workspace to run them.");
    return;
  }
  runner::TestRequest request;
  request.project = project;
  request.command = optional_string_field(args, "command").value_or("");
  request.tools = tools_of(args);
  request.from_output = optional_string_field(args, "fromOutput").value_or("");
  std::string key = "test " + project.string(), label = "test " + project.filename().string();
  JobObserver observer = job_observer(dispatcher_, progress_, key, label, "kernel-lsp test",
                                      "testing " + project.filename().string());
  auto running = jobs_.test(std::move(request), std::move(observer), reply.cancellation(),
                            [this, reply, key, project](Result<runner::TestOutcome> outcome) {
                              if (!outcome) {
                                progress_.end(key, "cannot run the tests");
                                reply.error(ErrorCode::RequestFailed, outcome.error().describe());
                                return;
                              }
                              progress_.end(key, outcome->cancelled      ? "cancelled"
                                                 : outcome->findings.empty() && !outcome->tests_failed ? "tests passed"
                                                                                                       : "problems found");
                              if (!outcome->cancelled) finished(project, *outcome);
                              reply.result(outcome_json(project, *outcome));
                            });
  if (running) refuse_busy(reply, *running);
}

void TestController::finished(const fs::path& project, const runner::TestOutcome& outcome) {
  for (const auto& file : diagnostics_.replace(project, outcome.findings)) republish_(file);
}

std::vector<analyzers::Finding> TestController::diagnostics_for(const fs::path& file) const {
  return diagnostics_.of(file);
}

void TestController::document_changed(const fs::path& file) { diagnostics_.forget(file); }

}  // namespace kl::lsp
