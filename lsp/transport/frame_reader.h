#pragma once
// Incremental parser for the LSP base protocol's framing: `Content-Length: N\r\n\r\n<N bytes>`.
//
// Contract: bytes go in with feed() in whatever chunks they arrive; next() yields complete
// message bodies (exactly N bytes, never more), framing errors and oversized messages, in stream
// order. Other headers (Content-Type, ...) are ignored; header names compare case-insensitively;
// a bare "\n" is accepted as a line ending for hand-written transcripts.
//
// Malformed input loses only itself:
//  - A header block without a usable Content-Length (missing, not a number, or a block longer
//    than kMaxHeaderBytes) is reported once. Its body, if it had one, has no known length, so the
//    reader resynchronises: it discards bytes up to the next `Content-Length: <digits>` line and
//    parses a header block from there, in this read or a later one.
//  - A body over `max_body_bytes` is reported as Oversized and skipped as it streams past, never
//    buffered whole: only its first kOversizedPrefixBytes are kept, so the layer above can find
//    the request's id and answer it. The event comes as soon as that prefix has arrived.
//
// Pure data structure: no I/O, no threads, no JSON, no allocation beyond one buffer. Not
// thread-safe; the transport's reader thread owns it. Cost: O(bytes fed).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kl::lsp {

struct FrameEvent {
  enum class Kind { Message, Error, Oversized };
  Kind kind = Kind::Message;
  // Message: the body. Error: a human-readable description. Oversized: the body's first bytes
  // (at most FrameReader::kOversizedPrefixBytes).
  std::string payload;
  size_t body_bytes = 0;  // Oversized: the length the header announced
};

class FrameReader {
 public:
  static constexpr size_t kDefaultMaxBodyBytes = size_t{64} << 20;  // 64 MiB
  static constexpr size_t kMaxHeaderBytes = size_t{64} << 10;
  // Enough for the `"id"` that clients write before `params`.
  static constexpr size_t kOversizedPrefixBytes = size_t{4} << 10;

  explicit FrameReader(size_t max_body_bytes = kDefaultMaxBodyBytes);

  void feed(std::string_view bytes);
  std::optional<FrameEvent> next();
  // Bytes received but not yet returned (for diagnostics at end of stream).
  size_t buffered_bytes() const { return buffer_.size() - consumed_; }
  size_t max_body_bytes() const { return max_body_bytes_; }

 private:
  enum class State { Headers, Body, Skipping, Resync };

  std::optional<FrameEvent> parse_headers();
  // Drops a bad header block's leftovers; true once a header block may start at consumed_.
  bool resync();
  // Takes up to `bytes.size()` bytes of an oversized body; returns how many it took.
  size_t skip(std::string_view bytes);
  FrameEvent drop_header_block(size_t block_bytes, std::string description);
  void compact();

  size_t max_body_bytes_;
  std::string buffer_;
  size_t consumed_ = 0;   // bytes of buffer_ already parsed
  size_t scan_from_ = 0;  // where the header scan resumes (relative to consumed_)
  State state_ = State::Headers;
  size_t body_bytes_ = 0;                // expected body size in State::Body
  size_t skip_bytes_ = 0;                // bytes of the oversized body still to pass in State::Skipping
  std::optional<FrameEvent> oversized_;  // filled with the oversized body's prefix, then returned
};

// Frames one body for writing.
std::string encode_frame(std::string_view body);

}  // namespace kl::lsp
