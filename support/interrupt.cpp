#include "support/interrupt.h"

#include <csignal>

namespace kl {
namespace {

CancellationToken& token() {
  static CancellationToken interrupted;
  return interrupted;
}

// Only an atomic store (lock-free, hence async-signal-safe). A second signal finds the default
// action restored and ends the process at once, for a child that ignores its TERM.
extern "C" void on_interrupt(int signal_number) {
  token().cancel();
  std::signal(signal_number, SIG_DFL);
}

}  // namespace

const CancellationToken& interrupt_token() {
  static bool installed = [] {
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    return true;
  }();
  (void)installed;
  return token();
}

}  // namespace kl
