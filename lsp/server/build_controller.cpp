#include "lsp/server/build_controller.h"

#include <spdlog/spdlog.h>

#include "analyzers/frontend/content_hash.h"
#include "analyzers/project/project_locator.h"
#include "lsp/features/document_symbols.h"
#include "lsp/protocol/params.h"
#include "lsp/server/build_results_json.h"
#include "lsp/server/uri.h"
#include "runner/build_report_json.h"
#include "runner/resource_usage.h"
#include "runner/utc_time.h"

namespace kl::lsp {
namespace fs = std::filesystem;
namespace {


// The project a command is for: `project` (a folder, or its build.toml) or `uri` (any file of
// the project: the nearest build.toml above it), each a URI or a path.
fs::path project_of(const json& args) {
  std::optional<std::string> given = optional_string_field(args, "project");
  if (!given) given = optional_string_field(args, "uri");
  if (!given) throw_invalid_params("expected {\"project\": folder} or {\"uri\": a file of the project}");
  std::optional<fs::path> path = given->find("://") != std::string::npos
                                     ? uri_to_path(*given)
                                     : std::optional<fs::path>(fs::path(*given));
  if (!path) throw_invalid_params("not a file URI: " + *given);
  std::error_code ec;
  fs::path p = fs::absolute(*path, ec).lexically_normal();
  if (p.filename() == "build.toml") return p.parent_path();
  if (fs::is_directory(p, ec) && fs::exists(p / "build.toml", ec)) return p;
  if (auto toml = analyzers::find_build_toml(fs::is_directory(p, ec) ? p / "x.cu" : p))
    return toml->parent_path();
  throw_invalid_params("no build.toml at or above " + p.string());
}

std::vector<std::string> capabilities_of(const json& args) {
  std::vector<std::string> caps;
  if (const json* list = optional_field(args, "capabilities")) {
    if (!list->is_array()) throw_invalid_params("capabilities must be a list of strings such as \"9.0\"");
    for (const auto& c : *list) {
      if (!c.is_string()) throw_invalid_params("capabilities must be a list of strings such as \"9.0\"");
      caps.push_back(c.get<std::string>());
    }
  }
  return caps;
}

// The kernel a ptxas message names ("Entry function '_Z10rms_kernelPfi' ..."), found in the
// build's sources by the scan that document symbols use; demangled through the build's own list.
KernelLocator locator_for(const runner::BuildReport& report, KernelServer& kernel) {
  std::map<std::string, std::string> demangled;
  std::set<fs::path> sources;
  for (const auto& unit : report.units) {
    sources.insert(unit.source);
    for (const auto& k : unit.kernels) demangled[k.mangled_name] = k.name;
  }
  for (const auto& [file, hash] : report.source_hashes) sources.insert(file);
  return [&kernel, demangled, sources](const std::string& mangled) -> std::optional<analyzers::Location> {
    auto it = demangled.find(mangled);
    std::string name = runner::kernel_base_name(it != demangled.end() ? it->second : mangled);
    for (const auto& file : sources) {
      auto text = kernel.text_of(file);
      if (!text) continue;
      for (const auto& symbol : document_symbols(*text, nullptr))
        if (symbol.kind == SymbolKind::Kernel && symbol.name == name)
          return analyzers::Location{file.string(), symbol.selection};
    }
    return std::nullopt;
  };
}

// The listed files whose text (the editor's, else the disk's) differs from what the build read.
std::vector<fs::path> stale_files(const runner::BuildReport& report, KernelServer& kernel) {
  std::vector<fs::path> stale;
  for (const auto& [file, hash] : report.source_hashes) {
    auto text = kernel.text_of(file);
    if (!text || analyzers::content_hash(*text) != hash) stale.push_back(file);
  }
  return stale;
}

}  // namespace

const json& command_arguments(const json& arguments) {
  static const json empty = json::object();
  if (arguments.is_array()) return arguments.empty() || !arguments[0].is_object() ? empty : arguments[0];
  return arguments.is_object() ? arguments : empty;
}

JobObserver job_observer(Dispatcher& dispatcher, ProgressReporter& progress, const std::string& key,
                         const std::string& label, const char* title, const std::string& message) {
  JobObserver observer;
  observer.started = [&progress, key, title, message] { progress.begin(key, title, message); };
  observer.progress = [&progress, key](const std::string& stage, int percent) { progress.report(key, stage, percent); };
  observer.output = [&dispatcher, label](std::string_view text) {
    dispatcher.notify("window/logMessage", {{"type", 4}, {"message", "[" + label + "] " + std::string(text)}});
  };
  return observer;
}

void refuse_busy(const Reply& reply, const runner::RunningJob& running) {
  reply.error(ErrorCode::RequestFailed,
              "a " + running.kind + " of " + running.project.string() +
                  " is already running; wait for it or cancel it (kernel-lsp.cancel)");
}

BuildController::BuildController(Dispatcher& dispatcher, ProgressReporter& progress, KernelServer& kernel,
                                 const ClientCapabilities& client,
                                 std::function<void(const fs::path&)> republish)
    : dispatcher_(dispatcher),
      progress_(progress),
      kernel_(kernel),
      client_(client),
      republish_(std::move(republish)),
      builds_(std::make_unique<ProjectBuilds>(
          [&kernel](const runner::BuildReport& report) { return locator_for(report, kernel); })) {}

BuildController::~BuildController() { stop(); }

void BuildController::stop() {
  if (builds_) builds_->stop();
}

void BuildController::bench_command(const json& arguments, const Reply& reply) {
  start_bench(arguments, reply, true);
}

void BuildController::bench_request(const json& params, const Reply& reply) {
  start_bench(params, reply, false);
}

bool BuildController::refuse_untrusted(const Reply& reply) const {
  if (kernel_.settings().workspace_trusted) return false;
  reply.error(ErrorCode::RequestFailed,
              "kernel-lsp starts no builds or benchmarks in an untrusted workspace (the client set "
              "workspaceTrusted to false): they run the project's compilers and Python code. Trust the "
              "workspace to run them.");
  return true;
}

void BuildController::build(const json& arguments, const Reply& reply) {
  const json& args = command_arguments(arguments);
  fs::path project = project_of(args);
  std::vector<std::string> caps = capabilities_of(args);
  if (refuse_untrusted(reply)) return;
  Settings settings = kernel_.settings();
  std::string key = "build " + project.string(), label = "build " + project.filename().string();
  runner::BuildRequest request;
  request.project = project;
  request.only_capabilities = caps;
  request.jobs = settings.build_jobs.value_or(0);
  for (const auto& dir : settings.torch_include_path) request.torch_include_dirs.emplace_back(dir);
  auto running = builds_->build(
      request, job_observer(dispatcher_, progress_, key, label, "kernel-lsp build", "compiling " + project.filename().string()),
      reply.cancellation(), [this, reply, key](std::shared_ptr<const BuildSnapshot> snapshot) {
        build_finished(snapshot);
        progress_.end(key, snapshot->report.cancelled ? "cancelled"
                           : snapshot->report.ok      ? "build ok"
                                                 : std::to_string(runner::failed_compiles(snapshot->report)) +
                                                       " compile(s) failed");
        reply.result(build_result_json(*snapshot));
      });
  if (running) refuse_busy(reply, *running);
}

void BuildController::start_bench(const json& arguments, const Reply& reply, bool opened_by_user) {
  const json& args = command_arguments(arguments);
  fs::path project = project_of(args);
  if (refuse_untrusted(reply)) return;
  Settings settings = kernel_.settings();
  runner::BenchRequest request;
  request.project = project;
  request.runner_command = optional_string_field(args, "runner").value_or(settings.bench_runner);
  if (const json* remote = optional_field(args, "remote"); remote && remote->is_boolean())
    request.force_runner = remote->get<bool>();
  if (auto convention = optional_string_field(args, "convention")) {
    auto parsed = runner::parse_bench_convention(*convention);
    if (!parsed) {
      reply.error(ErrorCode::InvalidParams, "convention must be auto, kernel-lsp or kernels, not '" + *convention + "'");
      return;
    }
    request.convention = *parsed;
  }
  std::string key = "bench " + project.string(), label = "bench " + project.filename().string();
  bool show = opened_by_user && client_.show_document;
  auto running = builds_->bench(
      request, job_observer(dispatcher_, progress_, key, label, "kernel-lsp bench", "benchmarking " + project.filename().string()),
      reply.cancellation(), [this, reply, key, project, show](Result<runner::BenchOutcome> outcome) {
        if (!outcome) {
          progress_.end(key, "cannot benchmark");
          reply.error(ErrorCode::RequestFailed, outcome.error().describe());
          return;
        }
        progress_.end(key, outcome->exit_code == 0 ? "benchmark done" : "benchmark failed");
        if (show && !outcome->report.empty())
          dispatcher_.call("window/showDocument",
                           {{"uri", path_to_uri(outcome->report)}, {"takeFocus", true}},
                           [](const json*, const RpcError*) {});
        reply.result(bench_result_json(project, *outcome));
      });
  if (running) refuse_busy(reply, *running);
}

void BuildController::cancel(const json& arguments, const Reply& reply) {
  const json& args = command_arguments(arguments);
  size_t cancelled = 0;
  std::optional<std::string> folder = optional_string_field(args, "project");
  std::error_code ec;
  // A test run's project is any folder (test_controller.h), with or without a build.toml.
  if (folder && folder->find("://") == std::string::npos && fs::is_directory(*folder, ec) &&
      !fs::exists(fs::path(*folder) / "build.toml", ec))
    cancelled = builds_->cancel(fs::absolute(*folder, ec).lexically_normal()) ? 1 : 0;
  else if (args.contains("project") || args.contains("uri"))
    cancelled = builds_->cancel(project_of(args)) ? 1 : 0;
  else
    cancelled = builds_->cancel_all();
  reply.result({{"cancelled", cancelled}});
}

void BuildController::show_usage(const json& arguments, const Reply& reply) {
  std::optional<std::string> details = optional_string_field(command_arguments(arguments), "details");
  if (!details) throw_invalid_params("expected {\"details\": the text of a resource lens}");
  dispatcher_.notify("window/showMessage", {{"type", 3}, {"message", *details}});
  reply.result(nullptr);
}

void BuildController::build_finished(const std::shared_ptr<const BuildSnapshot>& snapshot) {
  if (snapshot->report.cancelled) return;  // the previous build's messages still stand
  for (const auto& file : diagnostics_.replace(snapshot->report.project, snapshot->diagnostics)) republish_(file);
  if (client_.code_lens_refresh)
    dispatcher_.call("workspace/codeLens/refresh", nullptr, [](const json*, const RpcError*) {});
}

std::vector<analyzers::Finding> BuildController::diagnostics_for(const fs::path& file) const {
  std::vector<analyzers::Finding> found = diagnostics_.of(file);
  // The settings' disabledRules and severities apply to the nvcc and ptxas ids like to any rule.
  AnalysisSettingsConversion settings = to_analysis_settings(kernel_.settings());
  std::vector<analyzers::Finding> shown;
  for (auto& f : found) {
    if (settings.settings.disabled_rules.count(f.rule_id)) continue;
    if (auto level = settings.settings.severity_overrides.find(f.rule_id);
        level != settings.settings.severity_overrides.end())
      f.severity = level->second;
    shown.push_back(std::move(f));
  }
  return shown;
}

void BuildController::document_changed(const fs::path& file) { diagnostics_.forget(file); }

// ---- what the code lenses and the file status read ------------------------------------------

std::shared_ptr<const BuildSnapshot> BuildController::latest_build(const fs::path& project) const {
  return builds_->latest(project);
}

std::vector<fs::path> BuildController::changed_since(const BuildSnapshot& build) const {
  return stale_files(build.report, kernel_);
}

}  // namespace kl::lsp
