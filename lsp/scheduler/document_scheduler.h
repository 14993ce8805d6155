#pragma once
// Per-document analysis queues, like clangd's TUScheduler.
//
// Guarantees:
//  - one queue per document: at most one analysis of a document runs at a time, and only the
//    newest input waits behind it. An update replaces the waiting one (stale updates are
//    skipped) and cancels the running one (its result could only be dropped).
//  - an update waits the debounce delay (adaptive per document, see DebouncePolicy) before it
//    starts; `debounce = false` (didOpen, settings change) starts it at once. The adaptive
//    delay follows what the user waits for after an edit: the time from the start of a
//    debounced analysis to its first result (an early one when the backend sends one). Other
//    analyses do not count: an open's runs cold (no preamble yet), and a file parsed in several
//    configurations keeps working after its first result, as clangd's diagnostics wait for one
//    AST build and not for what follows it.
//  - Source and BuildToml jobs go to the backend on the WorkerPool; Skill jobs are checked in
//    process (skill_check.h) on a thread of their own, so that they never queue behind a parse.
//  - results reach `Callbacks::results` only when they are for the newest input of the
//    document; cancelled and outdated results are dropped. A source whose code tests an arch
//    macro may deliver an early result first (analysis.partial: the first configuration's
//    findings), then the final one; an early result never answers read().
//  - read() calls back exactly once: with the result for the document's input as of the call,
//    or with ContentModified when the document's text changes first, Closed when it is
//    closed, ShuttingDown at stop().
//
// Threading: update/remove/read from any thread (in practice the I/O thread), never blocking on
// an analysis. Callbacks run on worker threads (or on the caller's thread for a read whose
// result is already there). One timer thread starts due work on a WorkerPool.
// Cost: per document one small state object and the last outcome (findings + facts).
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "lsp/scheduler/analysis_backend.h"
#include "lsp/scheduler/analysis_job.h"
#include "lsp/scheduler/debounce_policy.h"
#include "lsp/scheduler/worker_pool.h"

namespace kl::lsp {

struct SchedulerOptions {
  size_t workers = 2;
  DebouncePolicy debounce;
};

enum class ReadStatus { Ready, ContentModified, Closed, Failed, ShuttingDown };

struct ReadResult {
  ReadStatus status = ReadStatus::Ready;
  std::shared_ptr<const AnalysisOutcome> outcome;  // set when Ready or Failed
};

struct SchedulerCallbacks {
  // A job starts (begin = true) or ends, whatever became of its result. For progress reports.
  std::function<void(const AnalysisJob& job, bool begin)> activity;
  // The newest result of a document (an early one has analysis.partial set).
  std::function<void(const std::shared_ptr<const AnalysisOutcome>& outcome)> results;
};

class DocumentScheduler {
 public:
  DocumentScheduler(AnalysisBackend& backend, SchedulerOptions options, SchedulerCallbacks callbacks);
  ~DocumentScheduler();
  DocumentScheduler(const DocumentScheduler&) = delete;
  DocumentScheduler& operator=(const DocumentScheduler&) = delete;

  void update(AnalysisJob job, bool debounce);
  void remove(const std::filesystem::path& file);
  void read(const std::filesystem::path& file, std::function<void(ReadResult)> callback);
  void set_debounce(DebouncePolicy policy);
  // Cancels running work, fails waiting reads, joins all threads. Idempotent.
  void stop();

  // For tests and benchmarks: true once nothing is waiting or running (false on timeout).
  bool wait_until_idle(std::chrono::milliseconds timeout);
  std::chrono::milliseconds debounce_for(const std::filesystem::path& file) const;
  size_t documents() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Waiter {
    int64_t version;
    uint64_t generation;
    std::function<void(ReadResult)> callback;
  };
  struct DocState {
    std::optional<AnalysisJob> pending;
    bool pending_is_edit = false;  // the pending update was debounced: its timing feeds `history`
    Clock::time_point due;
    bool running = false;
    CancellationHandle running_cancel;
    uint64_t latest_generation = 0;
    int64_t latest_version = 0;
    bool removed = false;
    std::shared_ptr<const AnalysisOutcome> last;
    std::vector<Waiter> waiters;
    AnalysisHistory history;
  };

  void timer_loop();
  void start_locked(const std::shared_ptr<DocState>& doc);
  void run_job(const std::shared_ptr<DocState>& doc, const AnalysisJob& job, CancellationHandle cancel,
               bool is_edit);
  analyzers::FileAnalysis analyze(const AnalysisJob& job, const CancellationToken& cancel,
                                  const analyzers::PartialAnalysisSink& partial);
  void deliver_partial(const std::shared_ptr<DocState>& doc, const AnalysisJob& job, const CancellationToken& cancel,
                       const analyzers::FileAnalysis& early, Clock::time_point started);
  bool idle_locked() const;

  AnalysisBackend& backend_;
  SchedulerCallbacks callbacks_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::filesystem::path, std::shared_ptr<DocState>> docs_;
  DebouncePolicy debounce_;
  uint64_t next_generation_ = 0;
  size_t delivering_ = 0;  // results being handed to callbacks (counts as busy)
  bool stopping_ = false;

  WorkerPool pool_;             // backend jobs (Source, BuildToml)
  WorkerPool in_process_pool_;  // Skill jobs: microseconds each, never behind a 30 s parse
  std::thread timer_;
};

}  // namespace kl::lsp
