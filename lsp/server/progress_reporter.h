#pragma once
// Work-done progress (window/workDoneProgress/create, then $/progress begin … end) for
// analyses worth watching, when the client supports it; otherwise every call is a no-op.
// begin()/end() from any thread; the create handshake completes on the I/O thread, and an end
// that overtakes it suppresses the begin, so a client never sees a dangling progress.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "lsp/protocol/dispatcher.h"

namespace kl::lsp {

class ProgressReporter {
 public:
  ProgressReporter(Dispatcher& dispatcher, bool enabled);

  void begin(const std::string& key, const std::string& title, const std::string& message);
  // A `report` of the progress under `key`, when its begin has reached the client (a report
  // before that is dropped: the next one, or the end, says more).
  void report(const std::string& key, const std::string& message, int percentage);
  void end(const std::string& key, const std::string& message);

 private:
  struct Entry {
    std::string token;
    bool created = false;  // the client accepted the token and we sent begin
    bool ended = false;
  };
  Dispatcher& dispatcher_;
  bool enabled_;
  std::mutex mutex_;
  uint64_t next_token_ = 1;
  std::map<std::string, Entry> active_;  // by key
};

}  // namespace kl::lsp
