#pragma once
// Long work on kernel projects (builds, benchmarks): at most one job per project at a time, each
// on its own thread, each with its own cancellation. The language server's commands and
// requests start jobs here; `kernel-lsp.cancel` and $/cancelRequest end them. A job's processes
// are ended with it (support/process.h kills a child's whole process group when asked to stop).
//
// A job has two parts: the work, and what follows it once the project is free again (the reply
// to the client). The project is released between the two, so a client that has read the reply
// of one build can start the next at once and is never told "already running".
//
// Thread-safety: every member may be called from any thread. The destructor cancels every job
// and waits for its thread.
#include <filesystem>
#include <functional>
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

// Runs after the job's project is released, on the job's thread; may be empty.
using AfterJob = std::function<void()>;
// The job itself: must return soon once the token is cancelled.
using JobWork = std::function<AfterJob(const CancellationToken&)>;

class ProjectJobs {
 public:
  ProjectJobs() = default;
  ~ProjectJobs();
  ProjectJobs(const ProjectJobs&) = delete;
  ProjectJobs& operator=(const ProjectJobs&) = delete;

  // Runs `work` on a new thread with the job's cancellation token, then what it returns once the
  // project is free, unless a job already runs for `project` (then returns that job and starts
  // nothing).
  std::optional<RunningJob> start(const std::filesystem::path& project, const std::string& kind, JobWork work);
  // Cancels the project's job; false when none runs.
  bool cancel(const std::filesystem::path& project);
  // Cancels every job; how many there were.
  size_t cancel_all();
  std::vector<RunningJob> running() const;
  // Waits for every job started so far to finish, its AfterJob included (tests, shutdown).
  void wait_all();

 private:
  enum class Stage { kWorking, kReleased, kFinished };
  struct Job {
    RunningJob info;
    CancellationHandle cancel;
    std::thread thread;
    Stage stage = Stage::kWorking;
    bool claimed = false;  // wait_all joins it: reap_finished must not
  };
  // The job that holds `project`, if any; caller holds mutex_.
  std::shared_ptr<Job> holder_of(const std::filesystem::path& project) const;
  void reap_finished();  // joins threads of finished jobs; caller holds mutex_

  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<Job>> jobs_;  // every job whose thread is not joined yet
};

}  // namespace kl::runner
