#include "lsp/scheduler/document_scheduler.h"

#include <spdlog/spdlog.h>

#include <optional>

#include "lsp/scheduler/skill_check.h"

namespace kl::lsp {

DocumentScheduler::DocumentScheduler(AnalysisBackend& backend, SchedulerOptions options,
                                     SchedulerCallbacks callbacks)
    : backend_(backend),
      callbacks_(std::move(callbacks)),
      debounce_(options.debounce),
      pool_(options.workers),
      in_process_pool_(1) {
  timer_ = std::thread([this] { timer_loop(); });
}

DocumentScheduler::~DocumentScheduler() { stop(); }

void DocumentScheduler::update(AnalysisJob job, bool debounce) {
  std::vector<Waiter> outdated;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    auto& slot = docs_[job.file];
    if (!slot) slot = std::make_shared<DocState>();
    DocState& doc = *slot;
    job.generation = ++next_generation_;
    doc.latest_generation = job.generation;
    if (job.version != doc.latest_version) {
      // Reads of the old text can never be answered truthfully now.
      for (auto& waiter : doc.waiters)
        if (waiter.version != job.version) outdated.push_back(std::move(waiter));
      std::erase_if(doc.waiters, [&](const Waiter& w) { return w.version != job.version; });
    }
    doc.latest_version = job.version;
    auto delay = debounce ? debounce_.compute(doc.history) : std::chrono::milliseconds(0);
    doc.due = Clock::now() + delay;
    doc.pending = std::move(job);
    doc.pending_is_edit = debounce;
    if (doc.running && doc.running_cancel) doc.running_cancel->cancel();
  }
  changed_.notify_all();
  for (auto& waiter : outdated) waiter.callback(ReadResult{ReadStatus::ContentModified, nullptr});
}

void DocumentScheduler::remove(const std::filesystem::path& file) {
  std::vector<Waiter> orphans;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = docs_.find(file);
    if (it == docs_.end()) return;
    DocState& doc = *it->second;
    doc.removed = true;
    doc.pending.reset();
    if (doc.running && doc.running_cancel) doc.running_cancel->cancel();
    orphans.swap(doc.waiters);
    docs_.erase(it);
  }
  changed_.notify_all();
  for (auto& waiter : orphans) waiter.callback(ReadResult{ReadStatus::Closed, nullptr});
}

void DocumentScheduler::read(const std::filesystem::path& file, std::function<void(ReadResult)> callback) {
  std::shared_ptr<const AnalysisOutcome> ready;
  ReadStatus status = ReadStatus::Ready;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = docs_.find(file);
    if (stopping_) {
      status = ReadStatus::ShuttingDown;
    } else if (it == docs_.end()) {
      status = ReadStatus::Closed;
    } else {
      DocState& doc = *it->second;
      if (doc.last && doc.last->job.generation == doc.latest_generation) {
        ready = doc.last;
        if (!ready->failure.empty()) status = ReadStatus::Failed;
      } else {
        doc.waiters.push_back(Waiter{doc.latest_version, doc.latest_generation, std::move(callback)});
        return;
      }
    }
  }
  callback(ReadResult{status, std::move(ready)});
}

void DocumentScheduler::set_debounce(DebouncePolicy policy) {
  std::lock_guard<std::mutex> lock(mutex_);
  debounce_ = policy;
}

void DocumentScheduler::stop() {
  std::vector<Waiter> orphans;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    for (auto& [file, doc] : docs_) {
      if (doc->running && doc->running_cancel) doc->running_cancel->cancel();
      doc->pending.reset();
      for (auto& waiter : doc->waiters) orphans.push_back(std::move(waiter));
      doc->waiters.clear();
    }
  }
  changed_.notify_all();
  for (auto& waiter : orphans) waiter.callback(ReadResult{ReadStatus::ShuttingDown, nullptr});
  if (timer_.joinable()) timer_.join();
  pool_.stop();
  in_process_pool_.stop();
}

bool DocumentScheduler::idle_locked() const {
  if (delivering_ > 0) return false;
  for (const auto& [file, doc] : docs_)
    if (doc->running || doc->pending) return false;
  return true;
}

bool DocumentScheduler::wait_until_idle(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, timeout, [this] { return idle_locked(); });
}

std::chrono::milliseconds DocumentScheduler::debounce_for(const std::filesystem::path& file) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = docs_.find(file);
  AnalysisHistory none;
  return debounce_.compute(it == docs_.end() ? none : it->second->history);
}

size_t DocumentScheduler::documents() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return docs_.size();
}

void DocumentScheduler::timer_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    auto now = Clock::now();
    auto next = Clock::time_point::max();
    for (auto& [file, doc] : docs_) {
      if (!doc->pending || doc->running) continue;
      if (doc->due <= now)
        start_locked(doc);
      else
        next = std::min(next, doc->due);
    }
    if (next == Clock::time_point::max())
      changed_.wait(lock);
    else
      changed_.wait_until(lock, next);
  }
}

void DocumentScheduler::start_locked(const std::shared_ptr<DocState>& doc) {
  AnalysisJob job = std::move(*doc->pending);
  doc->pending.reset();
  doc->running = true;
  CancellationHandle cancel = make_cancellation();
  doc->running_cancel = cancel;
  WorkerPool& pool = job.kind == JobKind::Skill ? in_process_pool_ : pool_;
  pool.submit([this, doc, job = std::move(job), cancel, is_edit = doc->pending_is_edit]() {
    run_job(doc, job, cancel, is_edit);
  });
}

analyzers::FileAnalysis DocumentScheduler::analyze(const AnalysisJob& job, const CancellationToken& cancel,
                                                   const analyzers::PartialAnalysisSink& partial) {
  if (job.kind == JobKind::Skill) return check_skill(job);  // never the backend's: see skill_check.h
  return backend_.analyze(job, cancel, partial);
}

void DocumentScheduler::deliver_partial(const std::shared_ptr<DocState>& doc, const AnalysisJob& job,
                                        const CancellationToken& cancel, const analyzers::FileAnalysis& early,
                                        Clock::time_point started) {
  auto outcome = std::make_shared<AnalysisOutcome>();
  outcome->job = job;
  outcome->analysis = early;
  outcome->analysis.partial = true;
  outcome->milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    bool current = !cancel.is_cancelled() && !doc->removed && !stopping_ && job.generation == doc->latest_generation;
    if (!current) return;
    ++delivering_;
  }
  if (callbacks_.results) callbacks_.results(outcome);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --delivering_;
  }
  changed_.notify_all();
}

void DocumentScheduler::run_job(const std::shared_ptr<DocState>& doc, const AnalysisJob& job,
                                CancellationHandle cancel, bool is_edit) {
  if (callbacks_.activity) callbacks_.activity(job, true);
  auto outcome = std::make_shared<AnalysisOutcome>();
  outcome->job = job;
  auto started = Clock::now();
  std::optional<double> first_result_ms;  // when an early result came
  if (!cancel->is_cancelled()) {
    try {
      outcome->analysis = analyze(job, *cancel, [&](const analyzers::FileAnalysis& early) {
        if (!first_result_ms)
          first_result_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
        deliver_partial(doc, job, *cancel, early, started);
      });
    } catch (const std::exception& e) {
      outcome->failure = e.what();
    } catch (...) {
      outcome->failure = "unknown exception";
    }
  } else {
    outcome->analysis.cancelled = true;
  }
  outcome->milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  if (!outcome->failure.empty())
    spdlog::error("analysis of {} failed: {}", job.file.string(), outcome->failure);
  if (callbacks_.activity) callbacks_.activity(job, false);

  bool cancelled = cancel->is_cancelled() || outcome->analysis.cancelled;
  std::vector<Waiter> satisfied;
  bool current = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    doc->running = false;
    doc->running_cancel.reset();
    if (is_edit && !cancelled && outcome->failure.empty())
      doc->history.record(first_result_ms.value_or(outcome->milliseconds));
    current = !cancelled && !doc->removed && !stopping_ && job.generation == doc->latest_generation;
    if (current) {
      doc->last = outcome;
      for (auto& waiter : doc->waiters)
        if (waiter.generation <= job.generation) satisfied.push_back(std::move(waiter));
      std::erase_if(doc->waiters, [&](const Waiter& w) { return w.generation <= job.generation; });
      ++delivering_;
    }
  }
  changed_.notify_all();  // the document may have newer input waiting to start
  if (spdlog::should_log(spdlog::level::debug)) {
    std::string stages;
    for (const auto& timing : outcome->analysis.timings)
      stages += fmt::format("{}{} {:.1f}", stages.empty() ? "" : ", ", timing.stage, timing.milliseconds);
    spdlog::debug("analysed {} v{} in {:.1f} ms ({}){}", job.file.string(), job.version,
                  outcome->milliseconds, stages, current ? "" : " (dropped: outdated or cancelled)");
  }
  if (!current) return;
  if (callbacks_.results) callbacks_.results(outcome);
  ReadStatus status = outcome->failure.empty() ? ReadStatus::Ready : ReadStatus::Failed;
  for (auto& waiter : satisfied) waiter.callback(ReadResult{status, outcome});
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --delivering_;
  }
  changed_.notify_all();
}

}  // namespace kl::lsp
