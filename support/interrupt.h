#pragma once
// Ctrl-C for commands that run child processes. Children lead their own process groups (so that a
// stop reaches everything they start), which also keeps the terminal's SIGINT from reaching them:
// the command must pass it on. The first call installs SIGINT and SIGTERM handlers that cancel
// the returned token; long work polls it and stops its children (support/process.h).
#include "support/cancellation.h"

namespace kl {

const CancellationToken& interrupt_token();

}  // namespace kl
