#pragma once
// Builds, benchmarks and test runs started from the editor or an agent, editor-agnostic: the
// server's commands call it with project folders and get plain results back. It keeps the
// newest finished build of each project (for code lenses and build diagnostics) and allows one
// job per project at a time (runner::ProjectJobs).
//
// Threading: any thread may call it; `done` and the observer's callbacks run on the job's
// thread. stop() cancels every job and waits for them; the destructor does the same.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "runner/build_diagnostics.h"
#include "runner/project_bench.h"
#include "runner/project_build.h"
#include "runner/project_jobs.h"
#include "runner/project_test.h"
#include "support/cancellation.h"

namespace kl::lsp {

struct BuildSnapshot {
  runner::BuildReport report;
  // nvcc's and ptxas' errors and warnings at their files and lines, one per distinct message,
  // naming the capabilities it came from.
  std::vector<analyzers::Finding> diagnostics;
};

struct JobObserver {
  // First thing on the job's thread, so that whatever `done` reports comes after it; never
  // called for a job that was refused.
  std::function<void()> started;
  std::function<void(const std::string& stage, int percent)> progress;
  std::function<void(std::string_view text)> output;
};

// Made per build: the locator may look at the build's sources.
using KernelLocator = runner::KernelLocator;
using KernelLocatorFactory = std::function<KernelLocator(const runner::BuildReport&)>;

class ProjectBuilds {
 public:
  using BuildDone = std::function<void(std::shared_ptr<const BuildSnapshot>)>;
  using BenchDone = std::function<void(Result<runner::BenchOutcome>)>;
  using TestDone = std::function<void(Result<runner::TestOutcome>)>;

  explicit ProjectBuilds(KernelLocatorFactory locator) : locator_(std::move(locator)) {}
  ~ProjectBuilds() { stop(); }

  // Start a build or a benchmark of `project` (the folder with build.toml); `also` cancels it
  // too (the request's own cancellation). Returns the job already running for the project, in
  // which case nothing starts and `done` is never called.
  // The request's project, capabilities, jobs and torch folders are used; its cancellation and
  // callbacks are the job's own.
  std::optional<runner::RunningJob> build(runner::BuildRequest request, JobObserver observer,
                                          CancellationHandle also, BuildDone done);
  std::optional<runner::RunningJob> bench(runner::BenchRequest request, JobObserver observer,
                                          CancellationHandle also, BenchDone done);
  // The project's tests, under compute-sanitizer when the request names tools.
  std::optional<runner::RunningJob> test(runner::TestRequest request, JobObserver observer,
                                         CancellationHandle also, TestDone done);

  bool cancel(const std::filesystem::path& project) { return jobs_.cancel(project); }
  size_t cancel_all() { return jobs_.cancel_all(); }
  std::vector<runner::RunningJob> running() const { return jobs_.running(); }

  // The newest build of the project that ran to its end (a cancelled one does not replace it).
  std::shared_ptr<const BuildSnapshot> latest(const std::filesystem::path& project) const;
  std::vector<std::shared_ptr<const BuildSnapshot>> latest_all() const;

  void stop();

 private:
  KernelLocatorFactory locator_;
  runner::ProjectJobs jobs_;
  mutable std::mutex mutex_;
  std::map<std::filesystem::path, std::shared_ptr<const BuildSnapshot>> latest_;
};

}  // namespace kl::lsp
