// Command-line flags of the server (`kernel-lsp [serve] ...`), as cli/main.cpp passes them.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lsp/server_main.h"
#include "lsp/transport/tcp_listener.h"

namespace {

struct Parsed {
  int code;
  kl::lsp::ServerOptions options;
  std::string error;
};

Parsed parse(std::vector<std::string> args) {
  args.insert(args.begin(), "serve");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  Parsed p;
  p.code = kl::lsp::parse_server_args(static_cast<int>(argv.size()), argv.data(), p.options, p.error);
  return p;
}

}  // namespace

TEST_CASE("stdio is the default and --stdio is accepted (even twice)", "[args]") {
  auto none = parse({});
  CHECK(none.code == 0);
  CHECK(none.options.mode == kl::lsp::ServerOptions::Mode::Stdio);
  auto twice = parse({"--stdio", "--stdio"});  // vscode-languageclient may append its own
  CHECK(twice.code == 0);
}

TEST_CASE("--listen takes HOST:PORT, [v6]:PORT or PORT, with = or a separate value", "[args]") {
  auto a = parse({"--listen", "0.0.0.0:7777"});
  REQUIRE(a.code == 0);
  CHECK(a.options.mode == kl::lsp::ServerOptions::Mode::Tcp);
  CHECK(a.options.listen_host == "0.0.0.0");
  CHECK(a.options.listen_port == 7777);
  auto b = parse({"--listen=9000"});
  REQUIRE(b.code == 0);
  CHECK(b.options.listen_host == "127.0.0.1");
  CHECK(b.options.listen_port == 9000);
  auto v6 = kl::lsp::parse_listen_address("[::1]:80");
  REQUIRE(v6);
  CHECK(v6->host == "::1");
  CHECK(parse({"--listen", "host:99999"}).code == 2);
  CHECK(parse({"--listen"}).code == 2);
}

TEST_CASE("--clientProcessId, log file and level", "[args]") {
  auto p = parse({"--clientProcessId=4242", "--log-file", "/tmp/x.log", "--log-level=debug"});
  REQUIRE(p.code == 0);
  CHECK(p.options.client_process_id == 4242);
  CHECK(p.options.log_file == std::filesystem::path("/tmp/x.log"));
  CHECK(p.options.log_level == "debug");
  CHECK(parse({"--clientProcessId", "17"}).options.client_process_id == 17);
  CHECK(parse({"--clientProcessId=abc"}).code == 2);
  CHECK(parse({"--log-level", "loud"}).code == 2);
}

TEST_CASE("unknown flags are usage errors; --help returns the usage", "[args]") {
  auto unknown = parse({"--frobnicate"});
  CHECK(unknown.code == 2);
  CHECK(unknown.error.find("--frobnicate") != std::string::npos);
  auto help = parse({"--help"});
  CHECK(help.code == 1);
  CHECK(help.error.find("usage: kernel-lsp") != std::string::npos);
}
