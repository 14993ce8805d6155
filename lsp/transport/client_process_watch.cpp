#include "lsp/transport/client_process_watch.h"

#include <signal.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <chrono>

namespace kl::lsp {

bool process_is_alive(int64_t pid) {
  if (pid <= 0) return true;
  // EPERM: it exists but belongs to someone else — still alive.
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

ClientProcessWatch::ClientProcessWatch(std::function<void(int64_t)> on_gone) : on_gone_(std::move(on_gone)) {}

ClientProcessWatch::~ClientProcessWatch() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ClientProcessWatch::watch(int64_t pid) {
  if (pid <= 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  pid_ = pid;
  spdlog::info("watching client process {}", pid);
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void ClientProcessWatch::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::seconds(1));
    if (stopping_) return;
    int64_t pid = pid_;
    if (!process_is_alive(pid)) {
      spdlog::warn("client process {} is gone; ending the session", pid);
      lock.unlock();
      on_gone_(pid);
      return;
    }
  }
}

}  // namespace kl::lsp
