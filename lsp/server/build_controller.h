#pragma once
// Builds and benchmarks over LSP: the kernel-lsp.build / .bench / .cancel commands
// (workspace/executeCommand), the kernel-lsp/build and kernel-lsp/bench requests agents call,
// the kernel-lsp.showUsage command of a resource lens (code_lenses.h makes the lenses from the
// builds kept here), and nvcc's and ptxas' messages as diagnostics of the files they name.
//
// Nothing here starts a process unless the client asked (a command or a request), and nothing
// at all in a workspace the client marked untrusted (setting workspaceTrusted). One job per
// project; progress through $/progress, output through window/logMessage; $/cancelRequest of a
// request, kernel-lsp.cancel, or stop() ends the job and every process it started.
//
// Threading: handlers on the I/O thread; jobs finish on their own threads and answer from there.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "lsp/core/kernel_server.h"
#include "lsp/core/project_builds.h"
#include "lsp/protocol/dispatcher.h"
#include "lsp/server/client_capabilities.h"
#include "lsp/server/progress_reporter.h"
#include "lsp/server/project_diagnostics.h"

namespace kl::lsp {

inline constexpr const char* kBuildCommand = "kernel-lsp.build";
inline constexpr const char* kBenchCommand = "kernel-lsp.bench";
inline constexpr const char* kCancelCommand = "kernel-lsp.cancel";
// A resource lens's command: shows its details (every target, what is stale) as a message, for
// clients that show a command's tooltip on hover only or not at all.
inline constexpr const char* kShowUsageCommand = "kernel-lsp.showUsage";
inline constexpr const char* kBuildMethod = "kernel-lsp/build";
inline constexpr const char* kBenchMethod = "kernel-lsp/bench";

// What the project jobs' controllers (builds and benchmarks here, test runs in
// test_controller.h) share: a command's argument object (its first argument) or a request's
// params; progress under `key` (begun on the job's thread, so it never follows the end) with the
// job's output as log messages prefixed with `label`; the answer to a job refused because the
// project is busy.
const json& command_arguments(const json& arguments);
JobObserver job_observer(Dispatcher& dispatcher, ProgressReporter& progress, const std::string& key,
                         const std::string& label, const char* title, const std::string& message);
void refuse_busy(const Reply& reply, const runner::RunningJob& running);

class BuildController {
 public:
  // `republish` publishes the diagnostics of a file again (lint + build), from any thread.
  BuildController(Dispatcher& dispatcher, ProgressReporter& progress, KernelServer& kernel,
                  const ClientCapabilities& client,
                  std::function<void(const std::filesystem::path&)> republish);
  ~BuildController();

  // The handlers (lsp_server.h routes the methods and commands to them). `arguments` is a
  // command's arguments or a request's params: command_arguments() reads either.
  void build(const json& arguments, const Reply& reply);          // kernel-lsp.build, kernel-lsp/build
  void bench_command(const json& arguments, const Reply& reply);  // kernel-lsp.bench: the report is shown
  void bench_request(const json& params, const Reply& reply);     // kernel-lsp/bench: the answer carries it
  void cancel(const json& arguments, const Reply& reply);         // kernel-lsp.cancel
  void show_usage(const json& arguments, const Reply& reply);     // kernel-lsp.showUsage

  // The newest build's messages located in `file`; an edit of the file drops them (their lines
  // no longer match the text), the next build brings them back if they still apply.
  std::vector<analyzers::Finding> diagnostics_for(const std::filesystem::path& file) const;
  void document_changed(const std::filesystem::path& file);

  // The newest finished build of `project` (null: none yet), and the files it read whose text
  // (the editor's, else the disk's) has changed since: the code lenses and kernel-lsp/fileStatus
  // (file_status_json.h).
  std::shared_ptr<const BuildSnapshot> latest_build(const std::filesystem::path& project) const;
  std::vector<std::filesystem::path> changed_since(const BuildSnapshot& build) const;

  void stop();

  // The builds' jobs, one per project, which test runs share (test_controller.h).
  ProjectBuilds& jobs() { return *builds_; }

 private:
  // `opened_by_user`: a command (the user clicked), so the report is shown when the client can.
  void start_bench(const json& arguments, const Reply& reply, bool opened_by_user);
  bool refuse_untrusted(const Reply& reply) const;
  void build_finished(const std::shared_ptr<const BuildSnapshot>& snapshot);

  Dispatcher& dispatcher_;
  ProgressReporter& progress_;
  KernelServer& kernel_;
  const ClientCapabilities& client_;
  std::function<void(const std::filesystem::path&)> republish_;
  std::unique_ptr<ProjectBuilds> builds_;

  ProjectDiagnostics diagnostics_;
};

}  // namespace kl::lsp
