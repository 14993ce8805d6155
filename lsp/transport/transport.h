#pragma once
// Moves framed JSON-RPC message bodies over a ByteStream; knows nothing about JSON.
//
// Contract:
//  - run() is the read loop. It runs on the calling thread (the "I/O thread"), hands each
//    complete body to the sink in order, reports framing problems and oversized messages without
//    stopping, and returns when the stream ends, the sink asks to stop, or close() is called.
//  - send() may be called from any thread; one writer at a time (a mutex), each body written as
//    one frame, never interleaved. After the peer is gone, send() returns false cheaply.
// Cost: one 64 KiB read buffer plus the largest message in flight.
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "lsp/transport/byte_stream.h"
#include "lsp/transport/frame_reader.h"

namespace kl::lsp {

class IncomingSink {
 public:
  virtual ~IncomingSink() = default;
  virtual void on_message(std::string body) = 0;
  virtual void on_framing_error(const std::string& description) = 0;
  // A message of `body_bytes` over the `limit` was skipped; `prefix` is its first bytes (see
  // FrameReader), enough to find a request's id and answer it.
  virtual void on_oversized_message(size_t body_bytes, size_t limit, const std::string& prefix) = 0;
  // Checked after every message; true ends run() (after `exit`).
  virtual bool should_stop() const = 0;
};

class Transport {
 public:
  enum class EndReason { EndOfStream, Stopped };

  explicit Transport(std::unique_ptr<ByteStream> stream,
                     size_t max_body_bytes = FrameReader::kDefaultMaxBodyBytes);

  EndReason run(IncomingSink& sink);
  bool send(std::string_view body);
  // Wakes run() so it returns; any thread.
  void close();

 private:
  std::unique_ptr<ByteStream> stream_;
  FrameReader reader_;
  std::mutex write_mutex_;
  bool write_failed_ = false;  // guarded by write_mutex_
};

}  // namespace kl::lsp
