#pragma once
// Accepts exactly one TCP connection (for `--listen HOST:PORT`) and hands it over as a
// ByteStream. Uses Boost.Asio to resolve and accept; the connected socket is then served by
// FdStream so that stdio and TCP share one EINTR-safe read/write path.
//
// Blocking; call from the thread that will run the server. Port 0 picks a free port, which
// `on_listening` receives (tests and agents read it from the log on stderr).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "lsp/transport/byte_stream.h"
#include "support/result.h"

namespace kl::lsp {

struct ListenAddress {
  std::string host = "127.0.0.1";
  uint16_t port = 0;
};

// Parses "HOST:PORT", "[v6]:PORT" or a bare "PORT".
Result<ListenAddress> parse_listen_address(const std::string& text);

Result<std::unique_ptr<ByteStream>> accept_one_connection(
    const ListenAddress& address, const std::function<void(uint16_t bound_port)>& on_listening);

}  // namespace kl::lsp
