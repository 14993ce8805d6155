#pragma once
// One analysis worker process, seen from its supervisor: started from the kernel-lsp
// executable as `kernel-lsp __analysis-worker`, spoken to over a socket (worker_channel.h),
// and, when it dies, asked why (the signal, and the stage its crash reporter wrote).
//
// Thread-safety: send() may be called from any thread; receive() and the rest by the one
// thread that owns the worker at the time.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "analyzers/isolation/worker_channel.h"

namespace kl::analyzers {

// How a worker ended.
struct WorkerDeath {
  int signal = 0;                // 0 when it exited
  int exit_code = 0;             // when it exited
  std::string stage;             // "the access model", from the crash report; empty when unknown
  bool stack_exhausted = false;  // the fault was at the end of the analysing thread's stack
  std::string describe() const;  // "SIGSEGV in the access model", "exit code 3"
};

class WorkerProcess {
 public:
  // Starts a worker and sends it the settings. nullptr and `error` set when it cannot start.
  // `look_up_libraries`: the worker looks the libraries' headers up as soon as it has its
  // settings (Analyzer::find_toolkit_and_libraries_in_background), not at its first analysis.
  static std::unique_ptr<WorkerProcess> start(const std::filesystem::path& executable,
                                              const AnalysisSettings& settings, std::string& error,
                                              bool look_up_libraries = false);
  // The two halves of start(): the process (loading clang's libraries takes ~100 ms, so a
  // server starts its workers before it knows its settings), then its settings, once.
  static std::unique_ptr<WorkerProcess> spawn(const std::filesystem::path& executable, std::string& error);
  // Like spawn(), but a fork of this process without exec: ready in about a millisecond instead
  // of ~20 ms (no loading and relocating clang's libraries, no static initialisation). Only
  // safe while this process has one thread, so only a server's start-up uses it.
  static std::unique_ptr<WorkerProcess> fork_from_single_threaded(std::string& error);
  bool configure(const AnalysisSettings& settings, std::string& error, bool look_up_libraries = false);
  ~WorkerProcess();  // closes the channel and kills the process if it is still there
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  bool send(const ChannelMessage& message);
  ChannelStatus receive(ChannelMessage& out, std::optional<std::chrono::steady_clock::time_point> until,
                        const std::function<bool()>& interrupt);
  // SIGKILL, then wait for it: for a worker that hangs or ran past its time.
  WorkerDeath kill_and_reap();
  // Wait for a worker whose channel closed, and say why it ended.
  WorkerDeath reap();
  pid_t pid() const { return pid_; }

 private:
  WorkerProcess(pid_t pid, int channel_fd, int report_fd);
  std::string read_report();

  pid_t pid_;
  int channel_fd_;
  int report_fd_;
  bool reaped_ = false;
  std::mutex send_mutex_;
  ChannelReader reader_;
};

// The executable workers are started from: $KERNEL_LSP_WORKER_EXECUTABLE when set (tests whose
// own binary is not kernel-lsp), else this process's own executable.
std::filesystem::path default_worker_executable();

}  // namespace kl::analyzers
