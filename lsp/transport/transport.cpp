#include "lsp/transport/transport.h"

#include <spdlog/spdlog.h>

namespace kl::lsp {

Transport::Transport(std::unique_ptr<ByteStream> stream, size_t max_body_bytes)
    : stream_(std::move(stream)), reader_(max_body_bytes) {}

Transport::EndReason Transport::run(IncomingSink& sink) {
  std::string chunk(64 * 1024, '\0');
  for (;;) {
    size_t n = stream_->read_some(chunk.data(), chunk.size());
    if (n == 0) {
      if (reader_.buffered_bytes() > 0)
        spdlog::warn("transport: stream ended inside a message ({} bytes unread)", reader_.buffered_bytes());
      return EndReason::EndOfStream;
    }
    reader_.feed(std::string_view(chunk.data(), n));
    while (auto event = reader_.next()) {
      switch (event->kind) {
        case FrameEvent::Kind::Message:
          spdlog::trace("<<< {}", event->payload);
          sink.on_message(std::move(event->payload));
          break;
        case FrameEvent::Kind::Error:
          spdlog::error("transport: {}", event->payload);
          sink.on_framing_error(event->payload);
          break;
        case FrameEvent::Kind::Oversized:
          spdlog::error("transport: message of {} bytes exceeds the limit of {} bytes; skipped",
                        event->body_bytes, reader_.max_body_bytes());
          sink.on_oversized_message(event->body_bytes, reader_.max_body_bytes(), event->payload);
          break;
      }
      if (sink.should_stop()) return EndReason::Stopped;
    }
  }
}

bool Transport::send(std::string_view body) {
  std::lock_guard<std::mutex> lock(write_mutex_);
  if (write_failed_) return false;
  spdlog::trace(">>> {}", body);
  if (!stream_->write_all(encode_frame(body))) {
    write_failed_ = true;
    // Nobody reads our output any more: stop reading too, so the server ends.
    stream_->close();
    return false;
  }
  return true;
}

void Transport::close() { stream_->close(); }

}  // namespace kl::lsp
