#include "lsp/server/lsp_server.h"

#include <spdlog/spdlog.h>

#include "analyzers/data/feature_table.h"
#include "guidance/snippet_catalog.h"
#include "lsp/features/completion_snippets.h"
#include "lsp/features/document_symbols.h"
#include "lsp/features/hover.h"
#include "lsp/protocol/params.h"
#include "lsp/server/code_actions_json.h"
#include "lsp/server/completion_json.h"
#include "lsp/server/converter_cache.h"
#include "lsp/server/diagnostics_json.h"
#include "lsp/server/document_symbols_json.h"
#include "lsp/server/file_status_json.h"
#include "lsp/server/guidance_json.h"
#include "lsp/server/hover_json.h"
#include "lsp/server/server_capabilities.h"
#include "lsp/server/settings_json.h"
#include "lsp/server/text_sync.h"
#include "lsp/server/uri.h"

namespace kl::lsp {
namespace {

// Runs the part of a reply computed off the I/O thread: an exception there fails the request
// like one in a handler would.
template <typename Body>
void guarded(const Reply& reply, Body&& body) {
  try {
    body();
  } catch (const RpcException& e) {
    reply.error(e.error());
  } catch (const std::exception& e) {
    spdlog::error("{} failed: {}", reply.method(), e.what());
    reply.error(ErrorCode::InternalError, reply.method() + " failed: " + e.what());
  }
}

// Answers a read that produced no analysis; false when there is one to use.
bool answer_unavailable(const Reply& reply, const ReadResult& read, const json& when_closed) {
  switch (read.status) {
    case ReadStatus::Ready:
    case ReadStatus::Failed:
      return false;
    case ReadStatus::ContentModified:
      reply.error(ErrorCode::ContentModified, "the document changed before the analysis finished");
      return true;
    case ReadStatus::Closed:
      reply.result(when_closed);
      return true;
    case ReadStatus::ShuttingDown:
      reply.error(ErrorCode::RequestCancelled, "the server is shutting down");
      return true;
  }
  return false;
}

std::vector<std::filesystem::path> folder_paths(const json& folders) {
  std::vector<std::filesystem::path> out;
  if (!folders.is_array()) return out;
  for (const auto& folder : folders)
    if (folder.is_object() && folder.contains("uri") && folder["uri"].is_string())
      if (auto path = uri_to_path(folder["uri"].get<std::string>())) out.push_back(*path);
  return out;
}

}  // namespace

const std::vector<LspServer::Route<LspServer::RequestHandler>>& LspServer::request_routes() {
  static const std::vector<Route<RequestHandler>> routes = {
      {"initialize", &LspServer::initialize},
      {"shutdown", &LspServer::shutdown},
      {"textDocument/diagnostic", &LspServer::diagnostic},
      {"textDocument/codeAction", &LspServer::code_action},
      {"textDocument/hover", &LspServer::hover},
      {"textDocument/documentSymbol", &LspServer::document_symbol},
      {"textDocument/completion", &LspServer::completion},
      {"textDocument/codeLens", &LspServer::code_lens},
      {"workspace/executeCommand", &LspServer::execute_command},
      {kFileStatusMethod, &LspServer::file_status},
      {kGuidanceMethod, &LspServer::guidance},
      {kBuildMethod, &LspServer::build},
      {kBenchMethod, &LspServer::bench},
      {kTestMethod, &LspServer::test},
  };
  return routes;
}

const std::vector<LspServer::Route<LspServer::NotificationHandler>>& LspServer::notification_routes() {
  static const std::vector<Route<NotificationHandler>> routes = {
      {"initialized", &LspServer::initialized},
      {"textDocument/didOpen", &LspServer::did_open},
      {"textDocument/didChange", &LspServer::did_change},
      {"textDocument/didClose", &LspServer::did_close},
      {"textDocument/didSave", &LspServer::did_save},
      {"workspace/didChangeConfiguration", &LspServer::did_change_configuration},
      {"workspace/didChangeWatchedFiles", &LspServer::did_change_watched_files},
      {"workspace/didChangeWorkspaceFolders", &LspServer::did_change_workspace_folders},
  };
  return routes;
}

const std::vector<LspServer::Route<LspServer::RequestHandler>>& LspServer::command_routes() {
  static const std::vector<Route<RequestHandler>> routes = {
      {kGuidanceCommand, &LspServer::guidance_command},
      {kBuildCommand, &LspServer::build},
      {kBenchCommand, &LspServer::bench_command},
      {kCancelCommand, &LspServer::cancel_command},
      {kShowUsageCommand, &LspServer::show_usage_command},
      {kTestCommand, &LspServer::test},
  };
  return routes;
}

LspServer::LspServer(Dispatcher& dispatcher, LspServerOptions options)
    : dispatcher_(dispatcher), options_(std::move(options)) {
  for (const auto& [method, handler] : request_routes())
    dispatcher_.on_request(method, [this, handler](const json& params, Reply reply) {
      (this->*handler)(params, reply);
    });
  for (const auto& [method, handler] : notification_routes())
    dispatcher_.on_notification(method, [this, handler](const json& params) { (this->*handler)(params); });
}

LspServer::~LspServer() { stop(); }

void LspServer::stop() {
  if (builds_) builds_->stop();  // ends every build's processes before the analyses
  if (kernel_) kernel_->stop();
}

void LspServer::execute_command(const json& params, const Reply& reply) {
  if (!params.is_object()) throw_invalid_params("workspace/executeCommand expects an object");
  std::string command = string_field(params, "command");
  const json* arguments = optional_field(params, "arguments");
  for (const auto& [name, handler] : command_routes()) {
    if (command != name) continue;
    (this->*handler)(arguments ? *arguments : json::array(), reply);
    return;
  }
  throw_invalid_params("unknown command `" + command + "`");
}

// ---- features with a unit of their own ---------------------------------------------------

void LspServer::code_lens(const json& params, const Reply& reply) { lenses_->code_lens(params, reply); }
void LspServer::file_status(const json& params, const Reply& reply) {
  file_status_request(params, reply, *kernel_, *builds_);
}
void LspServer::guidance(const json& params, const Reply& reply) {
  reply.result(guidance_request(params, *kernel_, client_.encoding.encoding));
}
void LspServer::guidance_command(const json& arguments, const Reply& reply) {
  reply.result(kl::lsp::guidance_command(arguments, *kernel_, client_.encoding.encoding));
}
void LspServer::build(const json& params, const Reply& reply) { builds_->build(params, reply); }
void LspServer::bench(const json& params, const Reply& reply) { builds_->bench_request(params, reply); }
void LspServer::bench_command(const json& arguments, const Reply& reply) {
  builds_->bench_command(arguments, reply);
}
void LspServer::cancel_command(const json& arguments, const Reply& reply) {
  builds_->cancel(arguments, reply);
}
void LspServer::show_usage_command(const json& arguments, const Reply& reply) {
  builds_->show_usage(arguments, reply);
}
void LspServer::test(const json& params, const Reply& reply) { tests_->test(params, reply); }

// ---- lifecycle --------------------------------------------------------------------------

void LspServer::initialize(const json& params, const Reply& reply) {
  if (!params.is_object()) throw_invalid_params("initialize expects an object");
  client_ = read_client_capabilities(params);
  if (const json* pid = optional_field(params, "processId"); pid && pid->is_number_integer())
    if (options_.on_client_process_id) options_.on_client_process_id(pid->get<int64_t>());

  if (const json* folders = optional_field(params, "workspaceFolders")) {
    roots_ = folder_paths(*folders);
  } else if (auto root = optional_string_field(params, "rootUri")) {
    if (auto path = uri_to_path(*root)) roots_.push_back(*path);
  } else if (auto root_path = optional_string_field(params, "rootPath")) {
    roots_.push_back(std::filesystem::path(*root_path).lexically_normal());
  }

  if (const json* options = optional_field(params, "initializationOptions"))
    merge_settings(initial_settings_, *options, startup_problems_);
  AnalysisSettingsConversion conversion = to_analysis_settings(initial_settings_);
  for (auto& problem : conversion.problems) startup_problems_.push_back(std::move(problem));

  std::unique_ptr<AnalysisBackend> backend;
  if (options_.make_backend) {
    backend = options_.make_backend(conversion.settings);
  } else {
    // One worker process per concurrent analysis, started now so that the first didOpen does
    // not wait for one.
    analyzers::IsolationOptions isolation;
    isolation.workers = static_cast<unsigned>(scheduler_options(initial_settings_).workers);
    if (initial_settings_.analysis_timeout_s)
      isolation.timeout = std::chrono::seconds(*initial_settings_.analysis_timeout_s);
    isolation.start_eagerly = true;
    backend = std::make_unique<AnalyzerBackend>(conversion.settings, isolation);
  }
  progress_ = std::make_unique<ProgressReporter>(dispatcher_, client_.work_done_progress);
  kernel_ = std::make_unique<KernelServer>(std::move(backend), initial_settings_, *this);
  kernel_->set_skill_roots(roots_);                                 // workspace skills
  kernel_->set_snippet_completion(client_snippet_support(params));  // snippets in completion
  builds_ = std::make_unique<BuildController>(dispatcher_, *progress_, *kernel_, client_,
                                              [this](const std::filesystem::path& file) { republish(file); });
  lenses_ = std::make_unique<CodeLenses>(*kernel_, client_, *builds_);
  tests_ = std::make_unique<TestController>(dispatcher_, *progress_, *kernel_, builds_->jobs(),
                                            [this](const std::filesystem::path& file) { republish(file); });
  spdlog::info("initialized: position encoding {}, {} workspace folder(s), progress {}",
               encoding_name(client_.encoding.encoding), roots_.size(),
               client_.work_done_progress ? "on" : "off");
  std::vector<std::string> commands;
  for (const auto& route : command_routes()) commands.push_back(route.method);
  reply.result(
      initialize_result(client_, initial_settings_.pull_diagnostics, options_.server_version, commands));
}

void LspServer::initialized(const json&) {
  show_problems(startup_problems_);
  startup_problems_.clear();
  if (client_.watched_files_registration) {
    json registration = {
        {"id", "kernel-lsp/build.toml"},
        {"method", "workspace/didChangeWatchedFiles"},
        {"registerOptions", {{"watchers", json::array({{{"globPattern", "**/build.toml"}}})}}}};
    dispatcher_.call("client/registerCapability", {{"registrations", json::array({registration})}},
                     [](const json*, const RpcError* error) {
                       if (error) spdlog::warn("file watching not registered: {}", error->message);
                     });
  }
  pull_configuration();
}

void LspServer::shutdown(const json&, const Reply& reply) {
  stop();
  reply.result(nullptr);
}

// ---- settings ---------------------------------------------------------------------------

void LspServer::pull_configuration() {
  if (!client_.configuration) return;
  json items = json::array({{{"section", kSettingsSection}}});
  dispatcher_.call("workspace/configuration", {{"items", items}},
                   [this](const json* result, const RpcError* error) {
                     if (error || !result || !result->is_array() || result->empty()) return;
                     Settings settings = initial_settings_;
                     std::vector<std::string> problems;
                     merge_settings(settings, (*result)[0], problems);
                     apply_settings(settings, std::move(problems));
                   });
}

void LspServer::apply_settings(const Settings& settings, std::vector<std::string> problems) {
  if (!kernel_) return;
  for (auto& problem : kernel_->update_settings(settings)) problems.push_back(std::move(problem));
  show_problems(problems);
}

void LspServer::show_problems(const std::vector<std::string>& problems) {
  // Every settings round re-validates everything; repeat nothing the user has already seen.
  std::vector<std::string> fresh;
  for (const auto& problem : problems)
    if (shown_problems_.insert(problem).second) fresh.push_back(problem);
  if (fresh.empty()) return;
  std::string text = "kernel-lsp settings: ";
  for (size_t i = 0; i < fresh.size(); ++i) text += (i ? "; " : "") + fresh[i];
  spdlog::warn("{}", text);
  dispatcher_.notify("window/showMessage", {{"type", 2}, {"message", text}});
}

void LspServer::did_change_configuration(const json& params) {
  const json* settings = optional_field(params, "settings");
  if (settings && settings->is_object() && !settings->empty()) {
    Settings merged = initial_settings_;
    std::vector<std::string> problems;
    merge_settings(merged, *settings, problems);
    apply_settings(merged, std::move(problems));
  }
  // Clients using the pull model send no settings (or all of them); ask for ours.
  pull_configuration();
}

void LspServer::did_change_workspace_folders(const json& params) {
  const json& event = required_field(params, "event");
  for (const auto& removed : folder_paths(event.value("removed", json::array())))
    std::erase(roots_, removed);
  for (const auto& added : folder_paths(event.value("added", json::array()))) roots_.push_back(added);
  kernel_->set_skill_roots(roots_);  // workspace skills follow the folders
  // build.toml discovery follows the files, not the folders; the folders are kept for logs.
  spdlog::info("{} workspace folder(s)", roots_.size());
}

void LspServer::did_change_watched_files(const json& params) {
  const json& changes = required_field(params, "changes");
  if (!changes.is_array()) throw_invalid_params("changes must be an array");
  std::vector<FileChange> events;
  for (const auto& change : changes) {
    auto path = uri_to_path(string_field(change, "uri"));
    if (!path) continue;
    int64_t type = integer_field(change, "type");
    if (type < 1 || type > 3) continue;
    events.push_back(FileChange{*path, static_cast<FileChangeType>(type)});
  }
  kernel_->files_changed_on_disk(events);
}

// ---- documents --------------------------------------------------------------------------

std::optional<std::filesystem::path> LspServer::document_path(const json& params) const {
  const json& document = required_field(params, "textDocument");
  return uri_to_path(string_field(document, "uri"));
}

std::optional<Document> LspServer::synced_document(const std::optional<std::filesystem::path>& path) const {
  if (!path || !text_sync_.in_sync(*path)) return std::nullopt;
  return kernel_->document(*path);
}

std::string LspServer::uri_of(const std::filesystem::path& path) const {
  std::lock_guard<std::mutex> lock(open_mutex_);
  auto it = uris_.find(path);
  return it == uris_.end() ? path_to_uri(path) : it->second;
}

void LspServer::did_open(const json& params) {
  const json& document = required_field(params, "textDocument");
  std::string uri = string_field(document, "uri");
  auto path = uri_to_path(uri);
  if (!path) {
    spdlog::info("not analysing {}: not a file", uri);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(open_mutex_);
    uris_[*path] = uri;
  }
  text_sync_.reset(*path);  // the editor's whole text is known again
  kernel_->open(*path, document.value("languageId", ""), integer_field(document, "version"),
                string_field(document, "text"));
}

void LspServer::did_change(const json& params) {
  auto path = document_path(params);
  if (!path) return;
  std::optional<Document> document = kernel_->document(*path);
  if (!document) {
    spdlog::warn("didChange for {}, which is not open", path->string());
    return;
  }
  int64_t version = integer_field(required_field(params, "textDocument"), "version");
  SyncOutcome sync = text_sync_.apply(*path, *document->text, required_field(params, "contentChanges"),
                                      client_.encoding.encoding);
  if (sync.kind != SyncOutcome::Kind::Applied) {
    lost_sync(*path, document->version, version, sync);
    return;
  }
  builds_->document_changed(*path);
  tests_->document_changed(*path);
  kernel_->change(*path, version, std::move(sync.text));
}

void LspServer::lost_sync(const std::filesystem::path& path, int64_t kept_version, int64_t version,
                          const SyncOutcome& outcome) {
  if (outcome.kind == SyncOutcome::Kind::StillLost) {
    spdlog::debug("{} is out of sync; change to version {} not applied{}", path.string(), version,
                  outcome.problem.empty() ? "" : ": " + outcome.problem);
    return;
  }
  spdlog::warn("{}: cannot apply the change to version {}: {}; out of sync until reopened", path.string(),
               version, outcome.problem);
  dispatcher_.notify("window/showMessage",
                     {{"type", 2},
                      {"message", "kernel-lsp could not apply an edit to " + path.filename().string() + ": " +
                                      outcome.problem + ". It keeps the last text it could follow (version " +
                                      std::to_string(kept_version) +
                                      ") and reports nothing for this file until you close and reopen it."}});
  // What was published describes a text the editor has left; nothing is known about the new one.
  publish(uri_of(path), version, json::array());
}

// The editor's buffer was analysed as it was typed, and a saved build.toml that is open was
// followed the same way: a save changes nothing.
void LspServer::did_save(const json&) {}

void LspServer::did_close(const json& params) {
  auto path = document_path(params);
  if (!path) return;
  std::string uri = uri_of(*path);
  text_sync_.reset(*path);
  kernel_->close(*path);
  {
    std::lock_guard<std::mutex> lock(open_mutex_);
    uris_.erase(*path);
    progress_shown_.erase(*path);
  }
  publish(uri, std::nullopt, json::array());  // a closed file keeps no diagnostics
}

// ---- diagnostics ------------------------------------------------------------------------

json LspServer::diagnostics_for(const AnalysisOutcome& outcome) {
  ConverterCache converters(client_.encoding.encoding,
                            [this](const std::filesystem::path& file) { return kernel_->text_of(file); });
  converters.add(outcome.job.file, outcome.job.text);
  std::vector<analyzers::Finding> findings = document_findings(outcome);
  for (auto& finding : builds_->diagnostics_for(outcome.job.file)) findings.push_back(std::move(finding));
  for (auto& finding : tests_->diagnostics_for(outcome.job.file)) findings.push_back(std::move(finding));
  return to_lsp_diagnostics(findings, outcome.job.file, converters, client_, guidance_links());
}

guidance::GuidanceLinks LspServer::guidance_links() const {
  return guidance::GuidanceLinks::for_setting(kernel_->settings().docs_base_url);
}

void LspServer::republish(const std::filesystem::path& file) {
  bool open = false;
  {
    std::lock_guard<std::mutex> lock(open_mutex_);
    open = uris_.count(file) > 0;
  }
  if (open) {
    // The newest analysis, published again with the new build messages.
    kernel_->with_analysis(file, [this](ReadResult read) {
      if ((read.status == ReadStatus::Ready || read.status == ReadStatus::Failed) && read.outcome)
        on_analysis(read.outcome);
    });
    return;
  }
  // A file that is not open shows the build's messages alone (the editor's problems list).
  ConverterCache converters(client_.encoding.encoding,
                            [this](const std::filesystem::path& f) { return kernel_->text_of(f); });
  try {
    std::vector<analyzers::Finding> findings = builds_->diagnostics_for(file);
    for (auto& finding : tests_->diagnostics_for(file)) findings.push_back(std::move(finding));
    publish(path_to_uri(file), std::nullopt, to_lsp_diagnostics(findings, file, converters, client_, guidance_links()));
  } catch (const std::exception& e) {
    spdlog::error("publishing build messages for {} failed: {}", file.string(), e.what());
  }
}

void LspServer::publish(const std::string& uri, std::optional<int64_t> version, json diagnostics) {
  json params = {{"uri", uri}, {"diagnostics", std::move(diagnostics)}};
  if (version) params["version"] = *version;
  dispatcher_.notify("textDocument/publishDiagnostics", std::move(params));
}

void LspServer::on_analysis(const std::shared_ptr<const AnalysisOutcome>& outcome) {
  std::string uri;
  {
    std::lock_guard<std::mutex> lock(open_mutex_);
    auto it = uris_.find(outcome->job.file);
    if (it == uris_.end()) return;  // closed meanwhile: its diagnostics were cleared
    uri = it->second;
  }
  if (!text_sync_.in_sync(outcome->job.file)) return;  // cleared when it went out of sync
  if (outcome->analysis.partial) report_pending_configurations(outcome->analysis, outcome->job.file);
  try {
    publish(uri, outcome->job.version, diagnostics_for(*outcome));
  } catch (const std::exception& e) {
    spdlog::error("publishing diagnostics for {} failed: {}", uri, e.what());
  }
}

// While the other configurations of a file are parsed after its first was published.
void LspServer::report_pending_configurations(const analyzers::FileAnalysis& early, const std::filesystem::path& file) {
  size_t total = early.archs.archs.size(), pending = early.archs_pending.size();
  if (total == 0) return;
  std::string message = std::to_string(total - pending) + " of " + std::to_string(total) +
                        " capabilities analysed; parsing the configurations of the other " + std::to_string(pending);
  progress_->report(file.string(), message, static_cast<int>(100 * (total - pending) / total));
}

void LspServer::on_activity(const AnalysisJob& job, bool begin) {
  if (job.kind == JobKind::Skill) return;  // a check of microseconds, no parse: never worth a progress bar
  std::string key = job.file.string();
  if (begin) {
    {
      std::lock_guard<std::mutex> lock(open_mutex_);
      // The first analysis of a file is the slow one (cold parse); later ones are not worth a
      // progress bar.
      if (!uris_.count(job.file) || !progress_shown_.insert(job.file).second) return;
    }
    progress_->begin(key, "kernel-lsp", "Analysing " + job.file.filename().string());
  } else {
    progress_->end(key, "done");
  }
}

void LspServer::diagnostic(const json& params, const Reply& reply) {
  auto path = document_path(params);
  json empty_report = {{"kind", "full"}, {"items", json::array()}};
  if (!synced_document(path)) {
    reply.result(empty_report);
    return;
  }
  std::optional<std::string> previous = optional_string_field(params, "previousResultId");
  kernel_->with_analysis(*path, [this, reply, previous, empty_report](ReadResult read) {
    guarded(reply, [&] {
      if (answer_unavailable(reply, read, empty_report)) return;
      std::string result_id = std::to_string(read.outcome->job.generation);
      if (previous && *previous == result_id) {
        reply.result({{"kind", "unchanged"}, {"resultId", result_id}});
        return;
      }
      reply.result({{"kind", "full"}, {"resultId", result_id}, {"items", diagnostics_for(*read.outcome)}});
    });
  });
}

// ---- features ---------------------------------------------------------------------------

void LspServer::code_action(const json& params, const Reply& reply) {
  auto path = document_path(params);
  std::optional<Document> document = synced_document(path);
  if (!document) {
    reply.result(json::array());
    return;
  }
  reply.result(code_actions(params, *document->text, document->kind));
}

void LspServer::hover(const json& params, const Reply& reply) {
  auto path = document_path(params);
  std::optional<Document> document = synced_document(path);
  if (!document || (document->kind != DocumentKind::Source && document->kind != DocumentKind::BuildToml)) {
    reply.result(nullptr);
    return;
  }
  PositionConverter converter(*document->text, client_.encoding.encoding);
  analyzers::Position position = converter.from_lsp(required_field(params, "position"));
  std::shared_ptr<const guidance::SkillGuidance> guidance = kernel_->guidance();
  if (document->kind == DocumentKind::BuildToml) {  // guidance only: no analysis to wait for
    reply.result(to_lsp_hover(build_toml_hover(*guidance, *document->text, position), converter));
    return;
  }
  // The position refers to the current text, which is what the read below analyses.
  kernel_->with_analysis(*path, [this, reply, position, guidance](ReadResult read) {
    guarded(reply, [&] {
      if (answer_unavailable(reply, read, nullptr)) return;
      const std::string& text = *read.outcome->job.text;
      auto hover = source_hover(read.outcome->analysis, text, position, &analyzers::FeatureTable::builtin(),
                                *guidance);
      reply.result(to_lsp_hover(hover, PositionConverter(text, client_.encoding.encoding)));
    });
  });
}

void LspServer::document_symbol(const json& params, const Reply& reply) {
  auto path = document_path(params);
  std::optional<Document> document = synced_document(path);
  if (!document || document->kind != DocumentKind::Source) {
    reply.result(json::array());
    return;
  }
  std::string uri = string_field(required_field(params, "textDocument"), "uri");
  kernel_->with_analysis(*path, [this, reply, uri](ReadResult read) {
    guarded(reply, [&] {
      if (answer_unavailable(reply, read, json::array())) return;
      const std::string& text = *read.outcome->job.text;
      // A failed analysis still has an outline from the scan.
      const analyzers::UnitFacts* facts =
          read.status == ReadStatus::Ready ? &read.outcome->analysis.facts : nullptr;
      auto symbols = document_symbols(text, facts);
      reply.result(to_lsp_symbols(symbols, PositionConverter(text, client_.encoding.encoding),
                                  client_.hierarchical_symbols, uri));
    });
  });
}

void LspServer::completion(const json& params, const Reply& reply) {
  auto path = document_path(params);
  // The kept text even when out of sync (not synced_document): as completion has always answered.
  std::optional<Document> document = path ? kernel_->document(*path) : std::nullopt;
  std::string_view text = document ? std::string_view(*document->text) : std::string_view();
  PositionConverter converter(text, client_.encoding.encoding);
  std::vector<SnippetCompletion> completions;
  if (document) {
    analyzers::Position position = converter.from_lsp(required_field(params, "position"));
    std::shared_ptr<const guidance::SkillGuidance> guidance = kernel_->guidance();
    // Context from path, language and text: kernel templates at file scope, device
    // helpers in kernel bodies, bindings in torch-ext/, tables in build.toml, tests in tests/*.py.
    SnippetDocument site{document->path, document->language_id, text, snippet_project_root(document->path)};
    completions = snippet_completions(guidance::SnippetCatalog::bundled(), guidance.get(), site, position);
  }
  reply.result(to_lsp_completions(completions, converter, kernel_->snippet_completion()));
}

}  // namespace kl::lsp
