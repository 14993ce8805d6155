#include "runner/project_jobs.h"

namespace kl::runner {

ProjectJobs::~ProjectJobs() {
  cancel_all();
  wait_all();
}

std::optional<RunningJob> ProjectJobs::start(const std::filesystem::path& project, const std::string& kind,
                                             std::function<void(const CancellationToken&)> work) {
  std::lock_guard lock(mutex_);
  reap_finished();
  if (auto it = active_.find(project); it != active_.end()) return it->second->info;
  auto job = std::make_shared<Job>();
  job->info = {project, kind};
  job->cancel = make_cancellation();
  active_[project] = job;
  // The thread holds the job alive; it moves itself from active_ to ended_ when done, so the
  // project is free for the next job at once and the thread is joined later.
  job->thread = std::thread([this, job, work = std::move(work)] {
    work(*job->cancel);
    std::lock_guard done_lock(mutex_);
    job->finished = true;
    if (auto it = active_.find(job->info.project); it != active_.end() && it->second == job)
      active_.erase(it);
    ended_.push_back(job);
  });
  return std::nullopt;
}

bool ProjectJobs::cancel(const std::filesystem::path& project) {
  std::lock_guard lock(mutex_);
  auto it = active_.find(project);
  if (it == active_.end()) return false;
  it->second->cancel->cancel();
  return true;
}

size_t ProjectJobs::cancel_all() {
  std::lock_guard lock(mutex_);
  for (auto& [project, job] : active_) job->cancel->cancel();
  return active_.size();
}

std::vector<RunningJob> ProjectJobs::running() const {
  std::lock_guard lock(mutex_);
  std::vector<RunningJob> out;
  for (const auto& [project, job] : active_) out.push_back(job->info);
  return out;
}

void ProjectJobs::reap_finished() {
  for (auto& job : ended_)
    if (job->thread.joinable() && job->thread.get_id() != std::this_thread::get_id()) job->thread.join();
  std::erase_if(ended_, [](const std::shared_ptr<Job>& job) { return !job->thread.joinable(); });
}

void ProjectJobs::wait_all() {
  for (;;) {
    std::vector<std::shared_ptr<Job>> to_join;
    {
      std::lock_guard lock(mutex_);
      for (auto& [project, job] : active_) to_join.push_back(job);
      for (auto& job : ended_) to_join.push_back(job);
      ended_.clear();
    }
    if (to_join.empty()) return;
    for (auto& job : to_join)
      if (job->thread.joinable() && job->thread.get_id() != std::this_thread::get_id()) job->thread.join();
    std::lock_guard lock(mutex_);
    if (active_.empty() && ended_.empty()) return;
  }
}

}  // namespace kl::runner
