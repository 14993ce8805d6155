#pragma once
// A cancellation flag shared between whoever asked for work and the code doing it. Cheap to
// poll; the worker checks it between stages (and inside long loops) and gives up early.
#include <atomic>
#include <memory>

namespace kl {

class CancellationToken {
 public:
  void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool is_cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_{false};
};

using CancellationHandle = std::shared_ptr<CancellationToken>;
inline CancellationHandle make_cancellation() { return std::make_shared<CancellationToken>(); }

}  // namespace kl
