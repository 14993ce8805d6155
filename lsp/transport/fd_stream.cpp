#include "lsp/transport/fd_stream.h"

#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kl::lsp {

FdStream::FdStream(int in_fd, int out_fd, bool owns_fds)
    : in_fd_(in_fd), out_fd_(out_fd), owns_fds_(owns_fds) {}

FdStream::~FdStream() {
  if (!owns_fds_) return;
  ::close(in_fd_);
  if (out_fd_ != in_fd_) ::close(out_fd_);
}

size_t FdStream::read_some(char* buffer, size_t capacity) {
  while (!closed_.load(std::memory_order_relaxed)) {
    pollfd fd{in_fd_, POLLIN, 0};
    int ready = ::poll(&fd, 1, 100);
    if (ready < 0) {
      if (errno == EINTR) continue;
      spdlog::error("transport: poll failed: {}", std::strerror(errno));
      return 0;
    }
    if (ready == 0) continue;  // timeout: re-check closed_
    ssize_t n = ::read(in_fd_, buffer, capacity);
    if (n > 0) return static_cast<size_t>(n);
    if (n == 0) return 0;  // end of stream
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
    spdlog::error("transport: read failed: {}", std::strerror(errno));
    return 0;
  }
  return 0;
}

bool FdStream::write_all(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(out_fd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd fd{out_fd_, POLLOUT, 0};
      ::poll(&fd, 1, 1000);
      continue;
    }
    spdlog::error("transport: write failed: {}", n < 0 ? std::strerror(errno) : "wrote nothing");
    return false;
  }
  return true;
}

void FdStream::close() {
  closed_.store(true, std::memory_order_relaxed);
  // A socket also wakes a peer-side reader; for pipes the poll timeout does the job.
  struct stat info{};
  if (::fstat(in_fd_, &info) == 0 && S_ISSOCK(info.st_mode)) ::shutdown(in_fd_, SHUT_RDWR);
}

}  // namespace kl::lsp
