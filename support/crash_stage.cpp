#include "support/crash_stage.h"

#include <sys/mman.h>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace kl {
namespace {

// The stage the crashing thread is in, when it marked one (threads that analyse side by side
// each mark their own); else the one marked last by any thread.
thread_local const char* t_stage = "";
std::atomic<const char*> g_stage{""};
int g_report_fd = -1;
// The lowest address of this thread's stack, noted when the thread was prepared: a fault just
// below or at it is stack exhaustion, not a wild pointer.
thread_local uintptr_t t_stack_low = 0;

struct HandledSignal {
  int number;
  const char* name;
  struct sigaction previous;
};
HandledSignal g_signals[] = {
    {SIGSEGV, "SIGSEGV", {}}, {SIGBUS, "SIGBUS", {}},   {SIGFPE, "SIGFPE", {}},
    {SIGILL, "SIGILL", {}},   {SIGABRT, "SIGABRT", {}},
};

void write_all(int fd, const char* text) {
  size_t length = std::strlen(text);
  while (length > 0) {
    ssize_t n = ::write(fd, text, length);
    if (n <= 0) return;
    text += n;
    length -= static_cast<size_t>(n);
  }
}

// Async-signal-safe: write(2) and sigaction(2) only. Returning re-executes the faulting
// instruction (or, for abort(), lets it re-raise) under the previous handler.
void report_and_forward(int number, siginfo_t* info, void*) {
  for (auto& handled : g_signals) {
    if (handled.number != number) continue;
    if (g_report_fd >= 0) {
      write_all(g_report_fd, handled.name);
      uintptr_t address = info ? reinterpret_cast<uintptr_t>(info->si_addr) : 0;
      constexpr uintptr_t kGuard = 1 << 20;  // guard page and the frame that jumped over it
      if (number == SIGSEGV && t_stack_low && address + kGuard >= t_stack_low &&
          address < t_stack_low + kGuard)
        write_all(g_report_fd, " (stack exhausted)");
      write_all(g_report_fd, "|");
      write_all(g_report_fd, *t_stage ? t_stage : g_stage.load(std::memory_order_relaxed));
      write_all(g_report_fd, "\n");
    }
    sigaction(number, &handled.previous, nullptr);
    // A signal sent by kill(2) or raise(3) is not re-delivered by returning: send it again.
    if (number == SIGABRT) raise(number);
    return;
  }
}

}  // namespace

CrashStage::CrashStage(const char* literal_name)
    : previous_(g_stage.exchange(literal_name)), previous_on_thread_(t_stage) {
  t_stage = literal_name;
}
CrashStage::~CrashStage() {
  t_stage = previous_on_thread_;
  g_stage.store(previous_);
}

void prepare_thread_for_crash_reports() {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    void* low = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attributes, &low, &size) == 0) t_stack_low = reinterpret_cast<uintptr_t>(low);
    pthread_attr_destroy(&attributes);
  }
  // Leaked on purpose: the stack must outlive any signal delivered to this thread. Mapped, not
  // malloc'd: AddressSanitizer unmaps a thread's alternate stack when the thread exits, and a
  // heap block is not a mapping (its munmap fails, and ASan aborts the exiting worker).
  constexpr size_t kSize = 256 * 1024;
  stack_t alternate{};
  void* mapped = mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (mapped == MAP_FAILED) return;
  alternate.ss_sp = mapped;
  alternate.ss_size = kSize;
  sigaltstack(&alternate, nullptr);
}

void install_crash_reporter(int report_fd) {
  g_report_fd = report_fd;
  prepare_thread_for_crash_reports();
  for (auto& handled : g_signals) {
    struct sigaction action{};
    action.sa_sigaction = report_and_forward;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(handled.number, &action, &handled.previous);
  }
}

}  // namespace kl
