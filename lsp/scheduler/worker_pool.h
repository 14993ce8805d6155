#pragma once
// A fixed set of threads running queued tasks in FIFO order: the analyses, off the I/O thread.
// submit() from any thread; stop() (or the destructor) drops tasks not yet started and joins
// the threads, so it waits for running tasks: they must poll their cancellation token.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kl::lsp {

class WorkerPool {
 public:
  explicit WorkerPool(size_t threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void submit(std::function<void()> task);
  void stop();
  size_t size() const { return threads_.size(); }

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace kl::lsp
