#pragma once
// Long work on kernel projects (builds, benchmarks): at most one job per project at a time, each
// on its own thread, each with its own cancellation. The language server's commands and
// requests start jobs here; `kernel-lsp.cancel` and $/cancelRequest end them. A job's processes
// are ended with it (support/process.h kills a child's whole process group when asked to stop).
//
// Thread-safety: every member may be called from any thread. The destructor cancels every job
// and waits for its thread.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/cancellation.h"

namespace kl::runner {

struct RunningJob {
  std::filesystem::path project;
  std::string kind;  // "build", "bench"
};

class ProjectJobs {
 public:
  ProjectJobs() = default;
  ~ProjectJobs();
  ProjectJobs(const ProjectJobs&) = delete;
  ProjectJobs& operator=(const ProjectJobs&) = delete;

  // Runs `work` on a new thread with the job's cancellation token, unless a job already runs for
  // `project` (then returns that job and starts nothing). `work` must return once the token is
  // cancelled, soon.
  std::optional<RunningJob> start(const std::filesystem::path& project, const std::string& kind,
                                  std::function<void(const CancellationToken&)> work);
  // Cancels the project's job; false when none runs.
  bool cancel(const std::filesystem::path& project);
  // Cancels every job; how many there were.
  size_t cancel_all();
  std::vector<RunningJob> running() const;
  // Waits for every job started so far to finish (tests, shutdown).
  void wait_all();

 private:
  struct Job {
    RunningJob info;
    CancellationHandle cancel;
    std::thread thread;
    bool finished = false;
  };
  void reap_finished();  // joins threads of finished jobs; caller holds mutex_

  mutable std::mutex mutex_;
  std::map<std::filesystem::path, std::shared_ptr<Job>> active_;  // by project
  std::vector<std::shared_ptr<Job>> ended_;                       // finished, not yet joined
};

}  // namespace kl::runner
