#pragma once
// Test runs over LSP: the kernel-lsp.test command (workspace/executeCommand) and the
// kernel-lsp/test request agents call. They run a project's tests, under compute-sanitizer
// when asked (`sanitize`: ["memcheck", "racecheck", ...]), and publish what the tools report as
// diagnostics of the files they name (runner/project_test.h); the answer lists them too.
//
// Jobs share the builds' one-job-per-project rule (ProjectBuilds): a test run and a build of one
// project never overlap, and kernel-lsp.cancel ends either. Nothing starts in an untrusted
// workspace. Progress through $/progress, the tests' output through window/logMessage.
//
// Threading: handlers on the I/O thread; jobs finish on their own threads and answer from there.
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "lsp/core/kernel_server.h"
#include "lsp/core/project_builds.h"
#include "lsp/protocol/dispatcher.h"
#include "lsp/server/progress_reporter.h"
#include "lsp/server/project_diagnostics.h"

namespace kl::lsp {

inline constexpr const char* kTestCommand = "kernel-lsp.test";
inline constexpr const char* kTestMethod = "kernel-lsp/test";

class TestController {
 public:
  // `republish` publishes the diagnostics of a file again, from any thread.
  TestController(Dispatcher& dispatcher, ProgressReporter& progress, KernelServer& kernel, ProjectBuilds& jobs,
                 std::function<void(const std::filesystem::path&)> republish);

  // kernel-lsp.test and kernel-lsp/test (lsp_server.h routes them here): a command's arguments
  // or a request's params, which command_arguments() reads alike.
  void test(const json& arguments, const Reply& reply);

  // The newest run's reports located in `file`; an edit of the file drops them (their lines no
  // longer match the text).
  std::vector<analyzers::Finding> diagnostics_for(const std::filesystem::path& file) const;
  void document_changed(const std::filesystem::path& file);

 private:
  void finished(const std::filesystem::path& project, const runner::TestOutcome& outcome);

  Dispatcher& dispatcher_;
  ProgressReporter& progress_;
  KernelServer& kernel_;
  ProjectBuilds& jobs_;
  std::function<void(const std::filesystem::path&)> republish_;

  ProjectDiagnostics diagnostics_;
};

}  // namespace kl::lsp
