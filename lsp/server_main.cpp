#include "lsp/server_main.h"

#include <fcntl.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <mutex>
#include <thread>

#include "analyzers/isolation/isolated_analyzer.h"
#include "lsp/core/kernel_server.h"
#include "lsp/protocol/dispatcher.h"
#include "lsp/scheduler/analysis_backend.h"
#include "lsp/server/lsp_server.h"
#include "lsp/transport/client_process_watch.h"
#include "lsp/transport/fd_stream.h"
#include "lsp/transport/logging.h"
#include "lsp/transport/tcp_listener.h"
#include "lsp/transport/transport.h"

#ifndef KERNEL_LSP_VERSION
#define KERNEL_LSP_VERSION "0.0.0"
#endif

namespace kl::lsp {
namespace {

class TransportSink final : public MessageSink {
 public:
  explicit TransportSink(Transport& transport) : transport_(transport) {}
  void send(std::string_view message) override { transport_.send(message); }

 private:
  Transport& transport_;
};

class DispatchingSink final : public IncomingSink {
 public:
  explicit DispatchingSink(Dispatcher& dispatcher) : dispatcher_(dispatcher) {}
  void on_message(std::string body) override { dispatcher_.receive(body); }
  void on_framing_error(const std::string& description) override {
    dispatcher_.receive_framing_error(description);
  }
  void on_oversized_message(size_t body_bytes, size_t limit, const std::string& prefix) override {
    dispatcher_.receive_oversized(body_bytes, limit, prefix);
  }
  bool should_stop() const override { return dispatcher_.exit_requested(); }

 private:
  Dispatcher& dispatcher_;
};

// Ends the process if stopping the session hangs: analyses poll their cancellation token, but one
// stuck inside a long clang call must not keep the server alive after the editor has left.
// Disarmed (joined) when the session finished stopping in time.
class ExitWatchdog {
 public:
  explicit ExitWatchdog(int exit_code)
      : thread_([this, exit_code] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (done_changed_.wait_for(lock, std::chrono::seconds(5), [this] { return done_; })) return;
          spdlog::warn("analyses did not stop within 5 s; exiting anyway");
          spdlog::default_logger()->flush();
          std::_Exit(exit_code);
        }) {}
  ~ExitWatchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    done_changed_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::thread thread_;
};

// Splits "--flag=value" or takes the next argument as the value.
bool flag_value(int argc, char** argv, int& i, std::string_view name, std::string& value) {
  std::string_view arg = argv[i];
  if (arg == name) {
    if (i + 1 >= argc) return false;
    value = argv[++i];
    return true;
  }
  if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
    value = std::string(arg.substr(name.size() + 1));
    return true;
  }
  return false;
}

bool matches_flag(std::string_view arg, std::string_view name) {
  return arg == name ||
         (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=');
}

}  // namespace

std::string server_usage() {
  return "usage: kernel-lsp [serve] [--stdio | --listen HOST:PORT] [--clientProcessId=PID]\n"
         "                  [--log-file PATH] [--log-level trace|debug|info|warn|error|off]\n"
         "Runs the language server over stdio (default) or one TCP connection.\n"
         "The log level defaults to $KERNEL_LSP_LOG, else info; logs go to stderr.\n";
}

int parse_server_args(int argc, char** argv, ServerOptions& options, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string value;
    if (arg == "--stdio" || arg == "stdio") {
      options.mode = ServerOptions::Mode::Stdio;
    } else if (arg == "--help" || arg == "-h") {
      error = server_usage();
      return 1;
    } else if (matches_flag(arg, "--listen") || matches_flag(arg, "--port")) {
      std::string name = arg.substr(0, arg.find('=')) == "--port" ? "--port" : "--listen";
      if (!flag_value(argc, argv, i, name, value)) {
        error = name + " needs HOST:PORT";
        return 2;
      }
      auto address = parse_listen_address(value);
      if (!address) {
        error = address.error().message;
        return 2;
      }
      options.mode = ServerOptions::Mode::Tcp;
      options.listen_host = address->host;
      options.listen_port = address->port;
    } else if (matches_flag(arg, "--clientProcessId")) {
      if (!flag_value(argc, argv, i, "--clientProcessId", value)) {
        error = "--clientProcessId needs a process id";
        return 2;
      }
      int64_t pid = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), pid);
      if (ec != std::errc() || end != value.data() + value.size() || pid <= 0) {
        error = "--clientProcessId expects a positive integer, got '" + value + "'";
        return 2;
      }
      options.client_process_id = pid;
    } else if (matches_flag(arg, "--log-file")) {
      if (!flag_value(argc, argv, i, "--log-file", value) || value.empty()) {
        error = "--log-file needs a path";
        return 2;
      }
      options.log_file = value;
    } else if (matches_flag(arg, "--log-level") || matches_flag(arg, "--log")) {
      std::string name = matches_flag(arg, "--log-level") ? "--log-level" : "--log";
      if (!flag_value(argc, argv, i, name, value) || !is_log_level(value)) {
        error = name + " expects one of trace, debug, info, warn, error, off";
        return 2;
      }
      options.log_level = value;
    } else {
      error = "unknown argument '" + std::string(arg) + "'\n" + server_usage();
      return 2;
    }
  }
  return 0;
}

int run_server(const ServerOptions& options) {
  if (auto logging = configure_logging(options.log_level, options.log_file); !logging) {
    std::fprintf(stderr, "kernel-lsp: %s\n", logging.error().message.c_str());
    return 2;
  }
  // A vanished client must be a write error, not a signal that kills us mid-reply.
  ::signal(SIGPIPE, SIG_IGN);
  // Analysis workers load clang's libraries while the client is still sending `initialize`; the
  // backend adopts them (isolated_analyzer.h). As many as the default concurrency uses.
  if (!isolation_disabled_by_environment())
    analyzers::prestart_analysis_workers(static_cast<unsigned>(scheduler_options(Settings{}).workers));

  std::unique_ptr<ByteStream> stream;
  if (options.mode == ServerOptions::Mode::Stdio) {
    // Keep the protocol's stdout for ourselves and point fd 1 at stderr, so that a stray
    // printf in any library (or the analyzers) cannot corrupt the message stream.
    // Close-on-exec: the analysis workers this server starts must not hold the client's pipe.
    int protocol_out = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
    if (protocol_out < 0) {
      spdlog::error("cannot duplicate stdout");
      return 2;
    }
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    stream = std::make_unique<FdStream>(STDIN_FILENO, protocol_out, /*owns_fds=*/false);
  } else {
    auto accepted =
        accept_one_connection(ListenAddress{options.listen_host, options.listen_port}, [&](uint16_t port) {
          spdlog::info("listening on {}:{}", options.listen_host, port);
          std::fprintf(stderr, "kernel-lsp: listening on %s:%u\n", options.listen_host.c_str(), port);
          std::fflush(stderr);
        });
    if (!accepted) {
      spdlog::error("{}", accepted.error().message);
      return 2;
    }
    stream = std::move(*accepted);
  }
  spdlog::info("kernel-lsp {} serving over {}", KERNEL_LSP_VERSION,
               options.mode == ServerOptions::Mode::Stdio ? "stdio" : "TCP");

  Transport transport(std::move(stream));
  TransportSink sink(transport);
  std::atomic<bool> client_gone{false};
  int exit_code = 1;
  {
    Dispatcher dispatcher(sink);
    ClientProcessWatch watch([&](int64_t) {
      client_gone = true;
      transport.close();
    });
    if (options.client_process_id) watch.watch(*options.client_process_id);
    LspServerOptions server_options;
    server_options.on_client_process_id = [&watch](int64_t pid) { watch.watch(pid); };
    server_options.server_version = KERNEL_LSP_VERSION;
    LspServer server(dispatcher, server_options);

    DispatchingSink incoming(dispatcher);
    Transport::EndReason reason = transport.run(incoming);
    exit_code =
        dispatcher.exit_requested() ? dispatcher.exit_code() : (client_gone ? 1 : dispatcher.exit_code());
    spdlog::info("session ended ({}); exit code {}",
                 reason == Transport::EndReason::Stopped ? "exit"
                 : client_gone                           ? "client gone"
                                                         : "end of input",
                 exit_code);
    ExitWatchdog watchdog(exit_code);
    server.stop();
    dispatcher.abandon_pending();
  }
  spdlog::default_logger()->flush();
  return exit_code;
}

}  // namespace kl::lsp
