#pragma once
// ByteStream over POSIX file descriptors: the server's stdin/stdout, or a connected socket.
//
// Reads poll() with a short timeout so that close() from another thread (client process died,
// shutdown) ends a blocked read within ~100 ms without signals. Writes loop over partial writes
// and EINTR/EAGAIN. The stream owns the descriptors it was given only when `owns_fds` is set.
// SIGPIPE must be ignored by the process (run_server does), so a vanished peer is an error
// value, not a signal.
#include <atomic>

#include "lsp/transport/byte_stream.h"

namespace kl::lsp {

class FdStream final : public ByteStream {
 public:
  FdStream(int in_fd, int out_fd, bool owns_fds);
  ~FdStream() override;
  FdStream(const FdStream&) = delete;
  FdStream& operator=(const FdStream&) = delete;

  size_t read_some(char* buffer, size_t capacity) override;
  bool write_all(std::string_view bytes) override;
  void close() override;

 private:
  int in_fd_;
  int out_fd_;
  bool owns_fds_;
  std::atomic<bool> closed_{false};
};

}  // namespace kl::lsp
