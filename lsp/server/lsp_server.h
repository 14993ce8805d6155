#pragma once
// The LSP layer (clangd's ClangdLSPServer): registers the LSP methods on a Dispatcher, turns
// their JSON into calls on the editor-agnostic KernelServer, and turns its results back into
// JSON in the negotiated position encoding. It owns the session's LSP state: client
// capabilities, position encoding, settings sources, URIs of open documents, progress.
//
// Every handler has one shape: a member taking the request's params (a command's arguments) and
// its Reply, or a notification's params. Three tables in lsp_server.cpp route the requests, the
// notifications and the workspace/executeCommand commands to them, and the command table is
// also the list `initialize` announces. A feature with a unit of its own (builds, test runs,
// code lenses, guidance, the file status) is reached through a one-line member that forwards
// to it.
//
// Threading: handlers run on the I/O thread (the dispatcher's); results of analyses arrive on
// worker threads and are published from there (the dispatcher's sink is thread-safe). Reads
// that need an analysis reply from whichever thread completes it. stop() (or the destructor)
// ends all analysis work; call it before the dispatcher's sink goes away.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "guidance/guidance_links.h"
#include "lsp/core/kernel_server.h"
#include "lsp/server/build_controller.h"
#include "lsp/server/code_lenses.h"
#include "lsp/server/test_controller.h"
#include "lsp/protocol/dispatcher.h"
#include "lsp/server/client_capabilities.h"
#include "lsp/server/progress_reporter.h"
#include "lsp/server/text_sync.h"
#include "lsp/workspace/settings.h"

namespace kl::lsp {

struct LspServerOptions {
  // Builds the analysis backend from the initial settings; empty = the real Analyzer.
  std::function<std::unique_ptr<AnalysisBackend>(const analyzers::AnalysisSettings&)> make_backend;
  // Receives the client's process id from `initialize` (the server should end when it dies).
  std::function<void(int64_t pid)> on_client_process_id;
  std::string server_version = "0.1.0";
};

class LspServer final : public KernelServerListener {
 public:
  LspServer(Dispatcher& dispatcher, LspServerOptions options);
  ~LspServer() override;
  LspServer(const LspServer&) = delete;
  LspServer& operator=(const LspServer&) = delete;

  void stop();
  // Null before `initialize`. For tests and benchmarks.
  KernelServer* kernel() { return kernel_.get(); }

 private:
  void on_analysis(const std::shared_ptr<const AnalysisOutcome>& outcome) override;
  void on_activity(const AnalysisJob& job, bool begin) override;
  void report_pending_configurations(const analyzers::FileAnalysis& early, const std::filesystem::path& file);

  using RequestHandler = void (LspServer::*)(const json& params, const Reply& reply);
  using NotificationHandler = void (LspServer::*)(const json& params);
  template <typename Handler>
  struct Route {
    const char* method;  // or the command's name
    Handler handler;
  };
  static const std::vector<Route<RequestHandler>>& request_routes();
  static const std::vector<Route<NotificationHandler>>& notification_routes();
  static const std::vector<Route<RequestHandler>>& command_routes();  // handlers take the arguments

  // Lifecycle and settings.
  void initialize(const json& params, const Reply& reply);
  void initialized(const json& params);
  void shutdown(const json& params, const Reply& reply);
  void did_change_configuration(const json& params);
  void did_change_watched_files(const json& params);
  void did_change_workspace_folders(const json& params);
  // Documents.
  void did_open(const json& params);
  void did_change(const json& params);
  void did_close(const json& params);
  void did_save(const json& params);
  // Reads of a document.
  void diagnostic(const json& params, const Reply& reply);
  void code_action(const json& params, const Reply& reply);
  void hover(const json& params, const Reply& reply);
  void document_symbol(const json& params, const Reply& reply);
  void completion(const json& params, const Reply& reply);
  void code_lens(const json& params, const Reply& reply);    // code_lenses.h
  void file_status(const json& params, const Reply& reply);  // file_status_json.h
  // Guidance (guidance_json.h), project jobs (build_controller.h, test_controller.h).
  void guidance(const json& params, const Reply& reply);
  void build(const json& params, const Reply& reply);  // the request and the command alike
  void bench(const json& params, const Reply& reply);
  void test(const json& params, const Reply& reply);  // the request and the command alike
  // workspace/executeCommand and its commands.
  void execute_command(const json& params, const Reply& reply);
  void guidance_command(const json& arguments, const Reply& reply);
  void bench_command(const json& arguments, const Reply& reply);
  void cancel_command(const json& arguments, const Reply& reply);
  void show_usage_command(const json& arguments, const Reply& reply);
  // Publishes a file's diagnostics again (after a build changed its build messages).
  void republish(const std::filesystem::path& file);

  void pull_configuration();
  void apply_settings(const Settings& settings, std::vector<std::string> problems);
  void show_problems(const std::vector<std::string>& problems);
  void publish(const std::string& uri, std::optional<int64_t> version, json diagnostics);
  json diagnostics_for(const AnalysisOutcome& outcome);
  // Links of diagnostics to guidance pages, under the current docsBaseUrl (else the installed pages).
  guidance::GuidanceLinks guidance_links() const;
  std::optional<std::filesystem::path> document_path(const json& params) const;
  // The open document, unless it is out of sync (TextSync): reads answer for such a document as
  // for one that is not open, since its positions refer to a text the server does not have.
  std::optional<Document> synced_document(const std::optional<std::filesystem::path>& path) const;
  void lost_sync(const std::filesystem::path& path, int64_t kept_version, int64_t version,
                 const SyncOutcome& outcome);
  std::string uri_of(const std::filesystem::path& path) const;

  Dispatcher& dispatcher_;
  LspServerOptions options_;
  ClientCapabilities client_;  // written once in initialize, before any worker exists
  Settings initial_settings_;  // initializationOptions; client configuration overlays it
  std::vector<std::string> startup_problems_;
  std::set<std::string> shown_problems_;  // each settings problem is shown once per session
  std::vector<std::filesystem::path> roots_;
  std::unique_ptr<ProgressReporter> progress_;
  std::unique_ptr<KernelServer> kernel_;
  std::unique_ptr<BuildController> builds_;  // build, bench
  std::unique_ptr<CodeLenses> lenses_;       // Build / Benchmark / resource lenses
  std::unique_ptr<TestController> tests_;    // test runs under compute-sanitizer
  TextSync text_sync_;  // which open documents the server can no longer follow

  mutable std::mutex open_mutex_;
  std::map<std::filesystem::path, std::string> uris_;  // open documents → the client's URI
  std::set<std::filesystem::path> progress_shown_;     // first analysis reported once per open
};

}  // namespace kl::lsp
