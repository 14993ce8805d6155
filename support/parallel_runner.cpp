#include "support/parallel_runner.h"

#include <algorithm>
#include <exception>

#include "support/crash_stage.h"

namespace kl {

struct ParallelRunner::Batch {
  const std::function<void(size_t)>* work = nullptr;
  size_t count = 0;
  size_t next = 0;
  size_t done = 0;
  std::exception_ptr error;
  std::condition_variable finished;
};

ParallelRunner::ParallelRunner(unsigned helpers) : helpers_(helpers) {}

ParallelRunner::~ParallelRunner() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (pthread_t thread : threads_) pthread_join(thread, nullptr);
}

void ParallelRunner::start_helpers() {
  size_t stack_bytes = 0;
  pthread_attr_t caller;
  if (pthread_getattr_np(pthread_self(), &caller) == 0) {
    pthread_attr_getstacksize(&caller, &stack_bytes);
    pthread_attr_destroy(&caller);
  }
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  if (stack_bytes > 0) pthread_attr_setstacksize(&attributes, stack_bytes);
  while (threads_.size() < helpers_) {
    pthread_t thread;
    auto entry = [](void* self) -> void* {
      static_cast<ParallelRunner*>(self)->helper_loop();
      return nullptr;
    };
    if (pthread_create(&thread, &attributes, entry, this) != 0) break;  // the caller runs the rest
    threads_.push_back(thread);
  }
  pthread_attr_destroy(&attributes);
}

void ParallelRunner::run_one(const std::shared_ptr<Batch>& batch, std::unique_lock<std::mutex>& lock) {
  size_t index = batch->next++;
  if (batch->next == batch->count) std::erase(open_, batch);
  lock.unlock();
  std::exception_ptr error;
  try {
    (*batch->work)(index);
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  if (error && !batch->error) batch->error = error;
  if (++batch->done == batch->count) batch->finished.notify_all();
}

void ParallelRunner::helper_loop() {
  prepare_thread_for_crash_reports();
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || !open_.empty(); });
    if (stopping_) return;
    std::shared_ptr<Batch> batch = open_.front();
    run_one(batch, lock);
  }
}

void ParallelRunner::run(size_t count, const std::function<void(size_t)>& work) {
  if (count == 0) return;
  if (helpers_ == 0 || count == 1) {
    for (size_t i = 0; i < count; ++i) work(i);
    return;
  }
  auto batch = std::make_shared<Batch>();
  batch->work = &work;
  batch->count = count;
  std::unique_lock<std::mutex> lock(mutex_);
  if (threads_.empty()) start_helpers();
  open_.push_back(batch);
  wake_.notify_all();
  while (batch->next < batch->count) run_one(batch, lock);
  batch->finished.wait(lock, [&] { return batch->done == batch->count; });
  if (batch->error) std::rethrow_exception(batch->error);
}

}  // namespace kl
