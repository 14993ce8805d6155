#pragma once
// Runs the iterations of one loop on the calling thread and a few long-lived helper threads,
// for independent pieces of CPU-bound work that one caller waits for (the configurations of
// one file after its first is published). A two-core machine does two at once.
//
// Guarantees: run() returns once every index has been handed to `work` and every call has
// returned; the caller always takes part, so a batch finishes even when every helper is busy
// with another caller's. The first exception thrown by `work` is rethrown by run() after the
// rest of the batch ran. Helpers are started on the first run() (never before: a process that
// forks workers must stay single-threaded until then), with a stack as large as that run()
// caller's (an analysis thread gets a large one for clang's recursion, and so must the work it
// hands out), and are prepared for crash reports (crash_stage.h), each once.
//
// Thread-safety: run() may be called from several threads at once; their batches share the
// helpers. Cost: one thread per helper, idle on a condition variable between batches.
#include <pthread.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace kl {

class ParallelRunner {
 public:
  // `helpers`: threads besides the caller's; 0 runs every index on the caller.
  explicit ParallelRunner(unsigned helpers);
  ~ParallelRunner();
  ParallelRunner(const ParallelRunner&) = delete;
  ParallelRunner& operator=(const ParallelRunner&) = delete;

  // Calls work(i) for every i in [0, count), in no particular order or thread.
  void run(size_t count, const std::function<void(size_t)>& work);

  unsigned helpers() const { return helpers_; }

 private:
  struct Batch;
  void helper_loop();
  void start_helpers();  // under mutex_
  // Takes the next index of `batch` (under `lock`), runs it unlocked, counts it done.
  void run_one(const std::shared_ptr<Batch>& batch, std::unique_lock<std::mutex>& lock);

  const unsigned helpers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Batch>> open_;  // batches with indices not yet handed out
  bool stopping_ = false;
  std::vector<pthread_t> threads_;
};

}  // namespace kl
