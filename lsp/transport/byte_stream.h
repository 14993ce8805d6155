#pragma once
// A duplex byte stream under the framing: stdio pipes or a TCP socket.
//
// Contract: read_some() is called by one reader thread only and blocks until at least one byte
// arrives, the peer closes (returns 0), or close() is called from any thread (returns 0 soon
// after). write_all() writes every byte or returns false once the peer is gone; callers
// serialise writes (MessageWriter holds the lock). Both retry on EINTR.
#include <cstddef>
#include <string_view>

namespace kl::lsp {

class ByteStream {
 public:
  virtual ~ByteStream() = default;
  virtual size_t read_some(char* buffer, size_t capacity) = 0;
  virtual bool write_all(std::string_view bytes) = 0;
  virtual void close() = 0;
};

}  // namespace kl::lsp
