#pragma once
// An in-process LSP client for the server's unit tests: a Dispatcher feeding an LspServer whose
// analysis backend is the scripted FakeBackend (tests/lsp/fake_backend.h), a sink that keeps
// every message the server sends so a test can wait for the one it expects, and helpers that
// speak JSON-RPC to it. Each client gets its own temporary workspace root (with a csrc/ folder
// for kernel-project layouts), removed when it goes. Header-only: tests/unit globs only
// *_test.cpp as executables.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lsp/protocol/dispatcher.h"
#include "lsp/server/lsp_server.h"
#include "lsp/server/uri.h"
#include "tests/lsp/fake_backend.h"

namespace kl::lsp::testing {

// Keeps what the server sends; take() waits for a message to arrive. Thread-safe: the server
// sends from the I/O thread and from analysis workers.
class WaitingSink final : public MessageSink {
 public:
  void send(std::string_view message) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      messages_.push_back(json::parse(message));
    }
    arrived_.notify_all();
  }
  // Removes and returns the first message matching `match`, waiting up to `timeout`.
  std::optional<json> take(const std::function<bool(const json&)>& match,
                           std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    std::unique_lock<std::mutex> lock(mutex_);
    std::optional<json> found;
    arrived_.wait_for(lock, timeout, [&] {
      for (auto it = messages_.begin(); it != messages_.end(); ++it)
        if (match(*it)) {
          found = *it;
          messages_.erase(it);
          return true;
        }
      return false;
    });
    return found;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<json> messages_;
};

// An initialized session: `initialize` (with `capabilities` and `options` as
// initializationOptions) and `initialized` are sent by the constructor.
struct LspTestClient {
  WaitingSink sink;
  Dispatcher dispatcher{sink};
  FakeBackend* backend = nullptr;  // owned by the server
  std::unique_ptr<LspServer> server;
  int next_id = 1;
  std::filesystem::path root;
  json initialize_result;

  explicit LspTestClient(json capabilities = json::object(), json options = json{{"debounceMs", 0}},
                         std::string_view root_prefix = "kl-lsp-test") {
    static int counter = 0;
    root = std::filesystem::temp_directory_path() /
           (std::string(root_prefix) + "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::filesystem::create_directories(root / "csrc");
    LspServerOptions server_options;
    server_options.make_backend = [this](const analyzers::AnalysisSettings&) {
      auto fake = std::make_unique<FakeBackend>();
      backend = fake.get();
      return fake;
    };
    server = std::make_unique<LspServer>(dispatcher, server_options);
    json init = request("initialize", {{"processId", nullptr},
                                       {"rootUri", path_to_uri(root)},
                                       {"capabilities", capabilities},
                                       {"initializationOptions", options}});
    REQUIRE(init.contains("result"));
    initialize_result = init["result"];
    notify("initialized", json::object());
  }
  ~LspTestClient() {
    server->stop();
    std::filesystem::remove_all(root);
  }
  LspTestClient(const LspTestClient&) = delete;
  LspTestClient& operator=(const LspTestClient&) = delete;

  // Sends a request and waits for its reply (a test failure when none comes).
  json request(const std::string& method, json params) {
    int id = send_request(method, std::move(params));
    auto reply = reply_to(id);
    REQUIRE(reply);
    return *reply;
  }
  // Sends a request without waiting; reply_to(id) collects the reply.
  int send_request(const std::string& method, json params) {
    int id = next_id++;
    dispatcher.receive(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump());
    return id;
  }
  std::optional<json> reply_to(int id, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    return sink.take(
        [id](const json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); }, timeout);
  }
  void notify(const std::string& method, json params) {
    dispatcher.receive(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump());
  }
  // The next publishDiagnostics for `uri` (at `version`, when given): its params.
  json diagnostics_for(const std::string& uri, std::optional<int> version = std::nullopt) {
    auto m = sink.take([&](const json& m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri &&
             (!version || m["params"].value("version", -1) == *version);
    });
    REQUIRE(m);
    return (*m)["params"];
  }
  // didOpen; returns the document's URI.
  std::string open(const std::filesystem::path& path, const std::string& language, const std::string& text,
                   int version = 1) {
    std::string uri = path_to_uri(path);
    notify(
        "textDocument/didOpen",
        {{"textDocument", {{"uri", uri}, {"languageId", language}, {"version", version}, {"text", text}}}});
    return uri;
  }
  // textDocument/hover's result at an LSP position.
  json hover(const std::string& uri, int line, int character) {
    return request("textDocument/hover",
                   {{"textDocument", {{"uri", uri}}},
                    {"position", {{"line", line}, {"character", character}}}})["result"];
  }
};

}  // namespace kl::lsp::testing
