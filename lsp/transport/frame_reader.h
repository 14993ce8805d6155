#pragma once
// Incremental parser for the LSP base protocol's framing: `Content-Length: N\r\n\r\n<N bytes>`.
//
// Contract: bytes go in with feed() in whatever chunks they arrive; next() yields complete
// message bodies (exactly N bytes, never more) and framing errors, in stream order. Other headers
// (Content-Type, ...) are ignored; header names compare case-insensitively; a bare "\n" is
// accepted as a line ending for hand-written transcripts. A body over `max_body_bytes` is
// reported as an error and skipped as it streams past (never buffered), so one absurd message
// costs no memory and the stream stays in sync. A header block without Content-Length, or one
// longer than kMaxHeaderBytes, is reported and dropped; parsing resumes at the next header block.
//
// Pure data structure: no I/O, no threads, no allocation beyond one buffer. Not thread-safe;
// the transport's reader thread owns it. Cost: O(bytes fed).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kl::lsp {

struct FrameEvent {
  enum class Kind { Message, Error };
  Kind kind = Kind::Message;
  std::string payload;  // the body for Message, a human-readable description for Error
};

class FrameReader {
 public:
  static constexpr size_t kDefaultMaxBodyBytes = size_t{64} << 20;  // 64 MiB
  static constexpr size_t kMaxHeaderBytes = size_t{64} << 10;

  explicit FrameReader(size_t max_body_bytes = kDefaultMaxBodyBytes);

  void feed(std::string_view bytes);
  std::optional<FrameEvent> next();
  // Bytes received but not yet returned (for diagnostics at end of stream).
  size_t buffered_bytes() const { return buffer_.size() - consumed_; }

 private:
  enum class State { Headers, Body, Skipping };

  std::optional<FrameEvent> parse_headers();
  void compact();

  size_t max_body_bytes_;
  std::string buffer_;
  size_t consumed_ = 0;   // bytes of buffer_ already parsed
  size_t scan_from_ = 0;  // where the header scan resumes (relative to consumed_)
  State state_ = State::Headers;
  size_t body_bytes_ = 0;  // expected body size in State::Body
  size_t skip_bytes_ = 0;  // bytes still to discard in State::Skipping
};

// Frames one body for writing.
std::string encode_frame(std::string_view body);

}  // namespace kl::lsp
