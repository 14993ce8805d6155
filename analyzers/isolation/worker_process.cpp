#include "analyzers/isolation/worker_process.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <thread>
#include <utility>

#include "analyzers/isolation/analysis_wire.h"
#include "analyzers/isolation/analysis_worker.h"

extern char** environ;

namespace kl::analyzers {
namespace {

std::string signal_name(int number) {
  const char* abbreviation = sigabbrev_np(number);
  return abbreviation ? std::string("SIG") + abbreviation : "signal " + std::to_string(number);
}

// The parent's ends and the child's ends of a worker's channel (a socket) and crash-report pipe,
// all close-on-exec; the child's are duplicated onto kWorkerChannelFd / kWorkerReportFd.
struct WorkerDescriptors {
  int channel[2] = {-1, -1};
  int report[2] = {-1, -1};

  bool open(std::string& error) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0) {
      error = std::string("socketpair: ") + strerror(errno);
      return false;
    }
    if (::pipe2(report, O_CLOEXEC) != 0) {
      error = std::string("pipe: ") + strerror(errno);
      close_all();
      return false;
    }
    return true;
  }
  void close_all() {
    for (int* fd : {&channel[0], &channel[1], &report[0], &report[1]})
      if (*fd >= 0) ::close(std::exchange(*fd, -1));
  }
  // After the child has its copies: the parent keeps channel[0] and a non-blocking report[0].
  void close_child_ends() {
    ::close(std::exchange(channel[1], -1));
    ::close(std::exchange(report[1], -1));
    ::fcntl(report[0], F_SETFL, O_NONBLOCK);
  }
};

WorkerDeath death_from_status(int status) {
  WorkerDeath death;
  if (WIFSIGNALED(status))
    death.signal = WTERMSIG(status);
  else if (WIFEXITED(status))
    death.exit_code = WEXITSTATUS(status);
  return death;
}

}  // namespace

std::string WorkerDeath::describe() const {
  std::string text = signal ? signal_name(signal) : "exit code " + std::to_string(exit_code);
  if (stack_exhausted) text = "stack exhaustion (" + text + ")";
  if (!stage.empty()) text += " in " + stage;
  return text;
}

std::filesystem::path default_worker_executable() {
  if (const char* configured = std::getenv("KERNEL_LSP_WORKER_EXECUTABLE"); configured && *configured)
    return configured;
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : self;
}

std::unique_ptr<WorkerProcess> WorkerProcess::start(const std::filesystem::path& executable,
                                                    const AnalysisSettings& settings, std::string& error,
                                                    bool look_up_libraries) {
  std::unique_ptr<WorkerProcess> worker = spawn(executable, error);
  if (worker && !worker->configure(settings, error, look_up_libraries)) return nullptr;
  return worker;
}

bool WorkerProcess::configure(const AnalysisSettings& settings, std::string& error, bool look_up_libraries) {
  ChannelMessage hello;
  hello.header = {{"settings", settings_to_json(settings)}};
  if (look_up_libraries) hello.header["look_up_libraries"] = true;
  if (send(hello)) return true;
  error = "the analysis worker closed its channel at start (" + reap().describe() + ")";
  return false;
}

std::unique_ptr<WorkerProcess> WorkerProcess::spawn(const std::filesystem::path& executable,
                                                    std::string& error) {
  if (executable.empty()) {
    error = "the kernel-lsp executable could not be found (/proc/self/exe)";
    return nullptr;
  }
  WorkerDescriptors fds;
  if (!fds.open(error)) return nullptr;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds.channel[1], kWorkerChannelFd);
  posix_spawn_file_actions_adddup2(&actions, fds.report[1], kWorkerReportFd);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // Nothing else of ours: not the client's socket or pipes (a worker holding them would keep a
  // dead server's connection open), not other workers' channels.
  posix_spawn_file_actions_addclosefrom_np(&actions, kWorkerReportFd + 1);
  std::string program = executable.string();
  std::string mode = "__analysis-worker";
  char* argv[] = {program.data(), mode.data(), nullptr};
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    error = "cannot start " + program + ": " + strerror(spawned);
    fds.close_all();
    return nullptr;
  }
  fds.close_child_ends();
  return std::unique_ptr<WorkerProcess>(new WorkerProcess(pid, fds.channel[0], fds.report[0]));
}

std::unique_ptr<WorkerProcess> WorkerProcess::fork_from_single_threaded(std::string& error) {
  WorkerDescriptors fds;
  if (!fds.open(error)) return nullptr;
  pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("fork: ") + strerror(errno);
    fds.close_all();
    return nullptr;
  }
  if (pid == 0) {
    // The child: the same descriptors a spawned worker gets, nothing else of the server's (its
    // client pipe or socket, its log file stays open on fd 2 only), then the worker loop.
    ::dup2(fds.channel[1], kWorkerChannelFd);
    ::dup2(fds.report[1], kWorkerReportFd);
    int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    ::close_range(kWorkerReportFd + 1, ~0u, 0);
    ::_exit(run_analysis_worker(kWorkerChannelFd, kWorkerReportFd));
  }
  fds.close_child_ends();
  return std::unique_ptr<WorkerProcess>(new WorkerProcess(pid, fds.channel[0], fds.report[0]));
}

WorkerProcess::WorkerProcess(pid_t pid, int channel_fd, int report_fd)
    : pid_(pid), channel_fd_(channel_fd), report_fd_(report_fd), reader_(channel_fd) {}

WorkerProcess::~WorkerProcess() {
  ::close(channel_fd_);  // a healthy worker exits on its own when its channel closes
  if (!reaped_) {
    // Give it a moment to exit on its own (it may be finishing a cancelled analysis), then kill.
    for (int i = 0; i < 20; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped_ = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!reaped_) kill_and_reap();
  }
  ::close(report_fd_);
}

bool WorkerProcess::send(const ChannelMessage& message) {
  std::lock_guard<std::mutex> lock(send_mutex_);
  return write_channel_message(channel_fd_, message);
}

ChannelStatus WorkerProcess::receive(ChannelMessage& out,
                                     std::optional<std::chrono::steady_clock::time_point> until,
                                     const std::function<bool()>& interrupt) {
  return reader_.read(out, until, interrupt);
}

std::string WorkerProcess::read_report() {
  std::string text;
  char chunk[512];
  for (;;) {
    ssize_t n = ::read(report_fd_, chunk, sizeof chunk);
    if (n <= 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  // "<SIGNAME>[ (stack exhausted)]|<stage>\n" lines; the first is the crash, later ones are its
  // echoes (a sanitizer aborting after its report, say).
  return text.substr(0, text.find('\n'));
}

WorkerDeath WorkerProcess::reap() {
  int status = 0;
  WorkerDeath death;
  if (!reaped_) {
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    death = death_from_status(status);
  }
  std::string report = read_report();
  size_t bar = report.find('|');
  if (bar != std::string::npos) {
    death.stage = report.substr(bar + 1);
    death.stack_exhausted = report.substr(0, bar).find("(stack exhausted)") != std::string::npos;
  }
  return death;
}

WorkerDeath WorkerProcess::kill_and_reap() {
  if (!reaped_) ::kill(pid_, SIGKILL);
  WorkerDeath death = reap();
  death.stage.clear();  // killed by us: whatever stage it was in did not crash
  death.stack_exhausted = false;
  return death;
}

}  // namespace kl::analyzers
