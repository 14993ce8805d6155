#pragma once
// Framing of the messages between a supervisor and its analysis worker: a JSON header on one
// line, then the raw bytes of the blobs it announces (`"blobs": [n, ...]`). Source text travels
// as a blob, not inside the JSON, because public CUDA files are not always valid UTF-8 (GBK
// comments, Latin-1 names) and JSON strings must be; positions in findings are byte columns, so
// the worker must see the file's bytes exactly. Headers are dumped with invalid UTF-8 replaced.
//
// Blocking I/O on a file descriptor (a socket in practice). Reads wait at most until a deadline
// and can be interrupted by a predicate polled every few milliseconds.
#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kl::analyzers {

struct ChannelMessage {
  nlohmann::json header;
  std::vector<std::string> blobs;
};

enum class ChannelStatus { Ok, Closed, TimedOut, Interrupted, Malformed };

// Buffered reader of one descriptor; keeps bytes that arrived past the message it returned.
class ChannelReader {
 public:
  explicit ChannelReader(int fd) : fd_(fd) {}

  // Waits for one message. `until` = no deadline when nullopt; `interrupt` polled while waiting
  // (true stops the wait with Interrupted, nothing consumed). `poll_interval` bounds the delay.
  ChannelStatus read(ChannelMessage& out,
                     std::optional<std::chrono::steady_clock::time_point> until = std::nullopt,
                     const std::function<bool()>& interrupt = {},
                     std::chrono::milliseconds poll_interval = std::chrono::milliseconds(20));

 private:
  // Fills buffer_ until it holds `bytes` past `consumed_`; false on close/time-out/interrupt.
  ChannelStatus fill(size_t bytes, std::optional<std::chrono::steady_clock::time_point> until,
                     const std::function<bool()>& interrupt, std::chrono::milliseconds poll_interval);

  int fd_;
  std::string buffer_;
  size_t consumed_ = 0;
};

// Writes one message whole; false when the other side is gone (no SIGPIPE: MSG_NOSIGNAL on
// sockets, and a write error otherwise).
bool write_channel_message(int fd, const ChannelMessage& message);

}  // namespace kl::analyzers
