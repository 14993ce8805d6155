#pragma once
// Ends the session when the editor's process dies (`--clientProcessId=N`, or `processId` in
// initialize) so that a crashed editor leaves no orphaned server. Polls once a second with
// kill(pid, 0) on its own thread; on death it runs `on_gone` once. Watching a second pid
// replaces the first. The destructor stops the thread.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace kl::lsp {

class ClientProcessWatch {
 public:
  explicit ClientProcessWatch(std::function<void(int64_t pid)> on_gone);
  ~ClientProcessWatch();
  ClientProcessWatch(const ClientProcessWatch&) = delete;
  ClientProcessWatch& operator=(const ClientProcessWatch&) = delete;

  void watch(int64_t pid);

 private:
  void run();

  std::function<void(int64_t)> on_gone_;
  std::mutex mutex_;
  std::condition_variable wake_;
  int64_t pid_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

bool process_is_alive(int64_t pid);

}  // namespace kl::lsp
