#include "runner/project_jobs.h"

#include <algorithm>
#include <chrono>

namespace kl::runner {

ProjectJobs::~ProjectJobs() {
  cancel_all();
  wait_all();
}

std::shared_ptr<ProjectJobs::Job> ProjectJobs::holder_of(const std::filesystem::path& project) const {
  for (const auto& job : jobs_)
    if (job->stage == Stage::kWorking && job->info.project == project) return job;
  return nullptr;
}

std::optional<RunningJob> ProjectJobs::start(const std::filesystem::path& project, const std::string& kind,
                                             JobWork work) {
  std::lock_guard lock(mutex_);
  reap_finished();
  if (auto holder = holder_of(project)) return holder->info;
  auto job = std::make_shared<Job>();
  job->info = {project, kind};
  job->cancel = make_cancellation();
  jobs_.push_back(job);
  // The thread's own reference keeps the job alive until it returns; the thread is joined later
  // by whoever next starts a job, or by wait_all.
  job->thread = std::thread([this, job, work = std::move(work)] {
    AfterJob after = work(*job->cancel);
    {
      std::lock_guard released(mutex_);
      job->stage = Stage::kReleased;
    }
    if (after) after();
    std::lock_guard finished(mutex_);
    job->stage = Stage::kFinished;
  });
  return std::nullopt;
}

bool ProjectJobs::cancel(const std::filesystem::path& project) {
  std::lock_guard lock(mutex_);
  auto holder = holder_of(project);
  if (!holder) return false;
  holder->cancel->cancel();
  return true;
}

size_t ProjectJobs::cancel_all() {
  std::lock_guard lock(mutex_);
  size_t cancelled = 0;
  for (auto& job : jobs_)
    if (job->stage == Stage::kWorking) {
      job->cancel->cancel();
      ++cancelled;
    }
  return cancelled;
}

std::vector<RunningJob> ProjectJobs::running() const {
  std::lock_guard lock(mutex_);
  std::vector<RunningJob> out;
  for (const auto& job : jobs_)
    if (job->stage == Stage::kWorking) out.push_back(job->info);
  return out;
}

void ProjectJobs::reap_finished() {
  // A finished job's thread only has to return (it takes no lock after marking itself finished),
  // so joining it here under the lock is short.
  std::erase_if(jobs_, [](const std::shared_ptr<Job>& job) {
    if (job->stage != Stage::kFinished || job->claimed) return false;
    if (job->thread.joinable()) job->thread.join();
    return true;
  });
}

void ProjectJobs::wait_all() {
  for (;;) {
    std::vector<std::shared_ptr<Job>> mine;
    bool others_waiting = false;
    {
      std::lock_guard lock(mutex_);
      for (auto& job : jobs_) {
        // A job waiting from its own AfterJob cannot wait for itself.
        if (job->thread.get_id() == std::this_thread::get_id()) continue;
        if (job->claimed) {
          others_waiting = true;
        } else {
          job->claimed = true;
          mine.push_back(job);
        }
      }
    }
    if (mine.empty() && !others_waiting) return;
    for (auto& job : mine)
      if (job->thread.joinable()) job->thread.join();
    {
      std::lock_guard lock(mutex_);
      std::erase_if(jobs_, [&](const std::shared_ptr<Job>& job) {
        return std::find(mine.begin(), mine.end(), job) != mine.end();
      });
    }
    // Another wait_all joins the rest: give it time instead of spinning.
    if (mine.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace kl::runner
