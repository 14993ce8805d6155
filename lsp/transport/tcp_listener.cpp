#include "lsp/transport/tcp_listener.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <charconv>

#include "lsp/transport/fd_stream.h"

namespace kl::lsp {

namespace asio = boost::asio;

Result<ListenAddress> parse_listen_address(const std::string& text) {
  ListenAddress address;
  std::string port_text = text;
  size_t colon = text.rfind(':');
  if (colon != std::string::npos) {
    std::string host = text.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    if (!host.empty()) address.host = host;
    port_text = text.substr(colon + 1);
  }
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port_text.empty() || value > 65535) {
    return make_error("--listen expects HOST:PORT or PORT, got '" + text + "'");
  }
  address.port = static_cast<uint16_t>(value);
  return address;
}

Result<std::unique_ptr<ByteStream>> accept_one_connection(
    const ListenAddress& address, const std::function<void(uint16_t bound_port)>& on_listening) {
  try {
    asio::io_context context;
    asio::ip::tcp::resolver resolver(context);
    auto endpoints =
        resolver.resolve(address.host, std::to_string(address.port), asio::ip::tcp::resolver::passive);
    if (endpoints.empty()) return make_error("cannot resolve " + address.host);
    asio::ip::tcp::acceptor acceptor(context);
    asio::ip::tcp::endpoint endpoint = endpoints.begin()->endpoint();
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::ip::tcp::acceptor::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen(1);
    if (on_listening) on_listening(acceptor.local_endpoint().port());
    asio::ip::tcp::socket socket(context);
    acceptor.accept(socket);
    socket.set_option(asio::ip::tcp::no_delay(true));
    int fd = socket.release();
    return std::unique_ptr<ByteStream>(std::make_unique<FdStream>(fd, fd, /*owns_fds=*/true));
  } catch (const std::exception& e) {
    return make_error("cannot listen on " + address.host + ":" + std::to_string(address.port) + ": " +
                      e.what());
  }
}

}  // namespace kl::lsp
