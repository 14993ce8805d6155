#include "analyzers/isolation/worker_channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace kl::analyzers {
namespace {

constexpr size_t kMaxHeaderBytes = 64 << 20;  // a reply with every finding of a huge file fits

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

ChannelStatus ChannelReader::fill(size_t bytes, std::optional<std::chrono::steady_clock::time_point> until,
                                  const std::function<bool()>& interrupt,
                                  std::chrono::milliseconds poll_interval) {
  char chunk[1 << 16];
  while (buffer_.size() - consumed_ < bytes) {
    int wait_ms = -1;
    if (interrupt) wait_ms = static_cast<int>(poll_interval.count());
    if (until) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*until - std::chrono::steady_clock::now());
      if (left.count() <= 0) return ChannelStatus::TimedOut;
      wait_ms = wait_ms < 0 ? static_cast<int>(left.count())
                            : std::min<int>(wait_ms, static_cast<int>(left.count()) + 1);
    }
    pollfd p{fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return ChannelStatus::Closed;
    }
    if (ready == 0) {
      if (interrupt && interrupt()) return ChannelStatus::Interrupted;
      continue;
    }
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return ChannelStatus::Closed;
    buffer_.append(chunk, static_cast<size_t>(n));
  }
  return ChannelStatus::Ok;
}

ChannelStatus ChannelReader::read(ChannelMessage& out,
                                  std::optional<std::chrono::steady_clock::time_point> until,
                                  const std::function<bool()>& interrupt,
                                  std::chrono::milliseconds poll_interval) {
  // The header line.
  size_t newline;
  for (;;) {
    newline = buffer_.find('\n', consumed_);
    if (newline != std::string::npos) break;
    if (buffer_.size() - consumed_ > kMaxHeaderBytes) return ChannelStatus::Malformed;
    ChannelStatus s = fill(buffer_.size() - consumed_ + 1, until, interrupt, poll_interval);
    if (s != ChannelStatus::Ok) return s;
  }
  nlohmann::json header =
      nlohmann::json::parse(buffer_.begin() + static_cast<std::ptrdiff_t>(consumed_),
                            buffer_.begin() + static_cast<std::ptrdiff_t>(newline), nullptr,
                            /*allow_exceptions=*/false);
  if (header.is_discarded() || !header.is_object()) return ChannelStatus::Malformed;
  size_t body_start = newline + 1;
  std::vector<size_t> sizes;
  size_t total = 0;
  if (auto it = header.find("blobs"); it != header.end()) {
    if (!it->is_array()) return ChannelStatus::Malformed;
    for (const auto& size : *it) {
      if (!size.is_number_unsigned()) return ChannelStatus::Malformed;
      sizes.push_back(size.get<size_t>());
      total += sizes.back();
    }
  }
  // The blobs: once the header is in, the rest of the message is read without interruption (a
  // half-read message would leave the stream out of step).
  size_t saved = consumed_;
  consumed_ = body_start;
  ChannelStatus s = fill(total, until, {}, poll_interval);
  if (s != ChannelStatus::Ok) {
    consumed_ = saved;
    return s;
  }
  out.header = std::move(header);
  out.blobs.clear();
  for (size_t size : sizes) {
    out.blobs.push_back(buffer_.substr(consumed_, size));
    consumed_ += size;
  }
  buffer_.erase(0, consumed_);
  consumed_ = 0;
  return ChannelStatus::Ok;
}

bool write_channel_message(int fd, const ChannelMessage& message) {
  nlohmann::json header = message.header;
  nlohmann::json sizes = nlohmann::json::array();
  for (const auto& blob : message.blobs) sizes.push_back(blob.size());
  header["blobs"] = std::move(sizes);
  std::string line = header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line += '\n';
  if (!write_all(fd, line.data(), line.size())) return false;
  for (const auto& blob : message.blobs)
    if (!write_all(fd, blob.data(), blob.size())) return false;
  return true;
}

}  // namespace kl::analyzers
