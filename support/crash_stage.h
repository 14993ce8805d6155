#pragma once
// Which stage of work this process is in, kept where a crash handler can read it. A worker
// process that dies of SIGSEGV in the middle of an analysis writes "<signal> <stage>" to a
// report descriptor before it dies, so its supervisor can say "SIGSEGV in the access model"
// instead of "the worker died".
//
// Threading: a worker analyses one file at a time, but may parse several of its configurations
// on threads side by side (support/parallel_runner.h): each thread's markers are its own, and a
// crash reports the crashing thread's stage, or, on a thread that marked none (a background
// build), the stage marked last in the process. Set from analysing threads, read from a signal
// handler on the crashing thread. Only string literals may be passed: the handler reads the
// pointer, never a copy.
namespace kl {

// Marks a stage for as long as it lives, restoring the enclosing one afterwards.
class CrashStage {
 public:
  explicit CrashStage(const char* literal_name);
  ~CrashStage();
  CrashStage(const CrashStage&) = delete;
  CrashStage& operator=(const CrashStage&) = delete;

 private:
  const char* previous_;
  const char* previous_on_thread_;
};

// Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT that write
// "<SIGNAME>[ (stack exhausted)]|<stage>\n" to `report_fd` and then hand the signal to whatever handler was there
// before (the default action, or a sanitizer's report), so the process still dies of it.
// Also gives the calling thread an alternate signal stack, so that stack exhaustion is
// reported too; call `prepare_thread_for_crash_reports()` on every other analysing thread.
void install_crash_reporter(int report_fd);
void prepare_thread_for_crash_reports();

}  // namespace kl
