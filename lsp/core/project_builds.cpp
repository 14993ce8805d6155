#include "lsp/core/project_builds.h"

namespace kl::lsp {

std::optional<runner::RunningJob> ProjectBuilds::build(runner::BuildRequest request, JobObserver observer,
                                                       CancellationHandle also, BuildDone done) {
  std::filesystem::path project = request.project;
  return jobs_.start(
      project, "build",
      [this, request = std::move(request), observer = std::move(observer), also = std::move(also),
       done = std::move(done)](const CancellationToken& cancel) mutable -> runner::AfterJob {
        if (observer.started) observer.started();
        request.cancel = &cancel;
        request.should_stop = [also] { return also && also->is_cancelled(); };
        request.on_progress = observer.progress;
        request.on_output = observer.output;
        auto snapshot = std::make_shared<BuildSnapshot>();
        snapshot->report = runner::build_project(request);
        snapshot->diagnostics = runner::build_diagnostics(
            snapshot->report, locator_ ? locator_(snapshot->report) : KernelLocator());
        if (!snapshot->report.cancelled) {
          std::lock_guard lock(mutex_);
          latest_[request.project] = snapshot;
        }
        // The reply goes out once the project is free (ProjectJobs).
        if (!done) return {};
        return [done = std::move(done), snapshot] { done(snapshot); };
      });
}

namespace {

// A job that runs `run(request)` with the job's cancellation and the observer's callbacks, and
// hands its result to `done` once the project is free: what a benchmark and a test run share.
template <class Request, class Outcome>
std::optional<runner::RunningJob> start_job(runner::ProjectJobs& jobs, const char* kind, Request request,
                                            JobObserver observer, CancellationHandle also,
                                            std::function<void(Result<Outcome>)> done,
                                            Result<Outcome> (*run)(const Request&)) {
  std::filesystem::path project = request.project;
  return jobs.start(project, kind,
                    [request = std::move(request), observer = std::move(observer), also = std::move(also),
                     done = std::move(done), run](const CancellationToken& cancel) mutable -> runner::AfterJob {
                      if (observer.started) observer.started();
                      request.cancel = &cancel;
                      request.should_stop = [also] { return also && also->is_cancelled(); };
                      request.on_progress = observer.progress;
                      request.on_output = observer.output;
                      auto outcome = std::make_shared<Result<Outcome>>(run(request));
                      if (!done) return {};
                      return [done = std::move(done), outcome] { done(std::move(*outcome)); };
                    });
}

}  // namespace

std::optional<runner::RunningJob> ProjectBuilds::bench(runner::BenchRequest request, JobObserver observer,
                                                       CancellationHandle also, BenchDone done) {
  return start_job<runner::BenchRequest, runner::BenchOutcome>(jobs_, "bench", std::move(request), std::move(observer),
                                                               std::move(also), std::move(done), &runner::run_benchmark);
}

std::optional<runner::RunningJob> ProjectBuilds::test(runner::TestRequest request, JobObserver observer,
                                                      CancellationHandle also, TestDone done) {
  return start_job<runner::TestRequest, runner::TestOutcome>(jobs_, "test", std::move(request), std::move(observer),
                                                             std::move(also), std::move(done),
                                                             &runner::run_project_tests);
}

std::shared_ptr<const BuildSnapshot> ProjectBuilds::latest(const std::filesystem::path& project) const {
  std::lock_guard lock(mutex_);
  auto it = latest_.find(project);
  return it == latest_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const BuildSnapshot>> ProjectBuilds::latest_all() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<const BuildSnapshot>> out;
  for (const auto& [project, snapshot] : latest_) out.push_back(snapshot);
  return out;
}

void ProjectBuilds::stop() {
  jobs_.cancel_all();
  jobs_.wait_all();
}

}  // namespace kl::lsp
