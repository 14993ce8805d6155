// JSON-RPC dispatch: every request answered exactly once, notifications never, and the
// protocol's error codes for each way a client can get it wrong.
#include <catch2/catch.hpp>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lsp/protocol/dispatcher.h"
#include "lsp/protocol/params.h"

using kl::lsp::Dispatcher;
using kl::lsp::ErrorCode;
using kl::lsp::json;
using kl::lsp::Reply;

namespace {

class RecordingSink final : public kl::lsp::MessageSink {
 public:
  void send(std::string_view message) override {
    std::lock_guard<std::mutex> lock(mutex);
    sent.push_back(json::parse(message));
  }
  std::vector<json> take() {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<json> out;
    out.swap(sent);
    return out;
  }
  std::mutex mutex;
  std::vector<json> sent;
};

std::string request(int id, const std::string& method, json params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}
std::string notification(const std::string& method, json params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump();
}
int error_code(const json& message) { return message.at("error").at("code").get<int>(); }

struct Session {
  RecordingSink sink;
  Dispatcher dispatcher{sink};
  std::vector<Reply> parked;  // replies kept for later
  Session() {
    dispatcher.on_request("initialize",
                          [](const json&, Reply r) { r.result({{"capabilities", json::object()}}); });
    dispatcher.on_request("echo", [](const json& p, Reply r) { r.result(p); });
    dispatcher.on_request("typed",
                          [](const json& p, Reply r) { r.result(kl::lsp::string_field(p, "name")); });
    dispatcher.on_request("throws", [](const json&, Reply) { throw std::runtime_error("boom"); });
    dispatcher.on_request("park", [this](const json&, Reply r) { parked.push_back(r); });
    dispatcher.on_request("twice", [](const json&, Reply r) {
      r.result(1);
      r.result(2);
    });
    dispatcher.on_request("forgets", [](const json&, Reply) {});
  }
  void initialize() {
    dispatcher.receive(request(0, "initialize"));
    sink.take();
  }
};

}  // namespace

TEST_CASE("requests before initialize get -32002; notifications are dropped", "[dispatch]") {
  Session s;
  s.dispatcher.receive(request(1, "echo"));
  s.dispatcher.receive(notification("initialized"));
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["id"] == 1);
  CHECK(error_code(sent[0]) == -32002);
}

TEST_CASE("initialize succeeds once; a second one is an invalid request", "[dispatch]") {
  Session s;
  s.dispatcher.receive(request(1, "initialize"));
  s.dispatcher.receive(request(2, "initialize"));
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0].contains("result"));
  CHECK(error_code(sent[1]) == -32600);
}

TEST_CASE("unknown requests get -32601, unknown notifications nothing", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(request(5, "no/such"));
  s.dispatcher.receive(notification("no/such"));
  s.dispatcher.receive(notification("$/setTrace", {{"value", "off"}}));
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["id"] == 5);
  CHECK(error_code(sent[0]) == -32601);
}

TEST_CASE("malformed JSON gets -32700 with id null and the session continues", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive("{\"jsonrpc\":\"2.0\",\"id\":3,");
  s.dispatcher.receive(request(4, "echo", {{"x", 1}}));
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0]["id"].is_null());
  CHECK(error_code(sent[0]) == -32700);
  CHECK(sent[1]["id"] == 4);
  CHECK(sent[1]["result"]["x"] == 1);
}

TEST_CASE("messages that are JSON but not JSON-RPC are invalid requests", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive("[1,2]");
  s.dispatcher.receive(R"({"id":{"a":1},"method":"echo"})");
  s.dispatcher.receive(R"({"id":7,"method":42})");
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 3);
  for (const auto& m : sent) CHECK(error_code(m) == -32600);
  CHECK(sent[2]["id"] == 7);
}

TEST_CASE("string and integer ids are echoed as they came", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(R"({"jsonrpc":"2.0","id":"abc","method":"echo","params":[]})");
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["id"] == "abc");
}

TEST_CASE("invalid params get -32602", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(request(1, "typed", {{"name", 5}}));
  s.dispatcher.receive(request(2, "typed", json::object()));
  s.dispatcher.receive(request(3, "typed", {{"name", "ok"}}));
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 3);
  CHECK(error_code(sent[0]) == -32602);
  CHECK(error_code(sent[1]) == -32602);
  CHECK(sent[2]["result"] == "ok");
}

TEST_CASE("a handler that throws fails its request, not the server", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(request(1, "throws"));
  s.dispatcher.receive(request(2, "echo", {{"still", "alive"}}));
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 2);
  CHECK(error_code(sent[0]) == -32603);
  CHECK(sent[1]["result"]["still"] == "alive");
}

TEST_CASE("a request is answered exactly once", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(request(1, "twice"));
  s.dispatcher.receive(request(2, "forgets"));  // the dropped Reply answers -32603
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0]["result"] == 1);
  CHECK(error_code(sent[1]) == -32603);
  CHECK(s.dispatcher.pending_requests() == 0);
}

TEST_CASE("$/cancelRequest answers -32800 at once and drops the late reply", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(request(9, "park"));
  REQUIRE(s.parked.size() == 1);
  CHECK_FALSE(s.parked[0].is_cancelled());
  s.dispatcher.receive(notification("$/cancelRequest", {{"id", 9}}));
  CHECK(s.parked[0].is_cancelled());
  s.parked[0].result("too late");
  s.dispatcher.receive(notification("$/cancelRequest", {{"id", 9}}));  // already answered: nothing
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["id"] == 9);
  CHECK(error_code(sent[0]) == -32800);
}

TEST_CASE("replies may come from another thread", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(request(1, "park"));
  std::thread([reply = s.parked[0]] { reply.result("from a worker"); }).join();
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["result"] == "from a worker");
}

TEST_CASE("shutdown then exit ends with 0; requests after shutdown are refused", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(request(1, "shutdown"));
  s.dispatcher.receive(request(2, "echo"));
  CHECK_FALSE(s.dispatcher.exit_requested());
  s.dispatcher.receive(notification("exit"));
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0]["result"].is_null());
  CHECK(error_code(sent[1]) == -32600);
  CHECK(s.dispatcher.exit_requested());
  CHECK(s.dispatcher.exit_code() == 0);
}

TEST_CASE("exit without shutdown ends with 1", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(notification("exit"));
  CHECK(s.dispatcher.exit_requested());
  CHECK(s.dispatcher.exit_code() == 1);
  Session early;  // even before initialize
  early.dispatcher.receive(notification("exit"));
  CHECK(early.dispatcher.exit_requested());
  CHECK(early.dispatcher.exit_code() == 1);
}

TEST_CASE("server-to-client requests get their responses routed back", "[dispatch]") {
  Session s;
  s.initialize();
  json got_result;
  int got_error = 0;
  s.dispatcher.call("workspace/configuration", {{"items", json::array()}},
                    [&](const json* result, const kl::lsp::RpcError*) { got_result = *result; });
  s.dispatcher.call(
      "window/workDoneProgress/create", {{"token", "t"}},
      [&](const json*, const kl::lsp::RpcError* error) { got_error = static_cast<int>(error->code); });
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0]["method"] == "workspace/configuration");
  json first_id = sent[0]["id"], second_id = sent[1]["id"];
  CHECK(first_id != second_id);
  s.dispatcher.receive(
      json{{"jsonrpc", "2.0"}, {"id", second_id}, {"error", {{"code", -32601}, {"message", "no"}}}}.dump());
  s.dispatcher.receive(
      json{{"jsonrpc", "2.0"}, {"id", first_id}, {"result", json::array({{{"a", 1}}})}}.dump());
  s.dispatcher.receive(
      json{{"jsonrpc", "2.0"}, {"id", 999}, {"result", nullptr}}.dump());  // unknown: ignored
  CHECK(got_result[0]["a"] == 1);
  CHECK(got_error == -32601);
  CHECK(s.sink.take().empty());
}

TEST_CASE("the end of a session answers what is still open", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive(request(1, "park"));
  bool failed = false;
  s.dispatcher.call("x", nullptr, [&](const json*, const kl::lsp::RpcError* e) { failed = e != nullptr; });
  s.sink.take();
  s.dispatcher.abandon_pending();
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);
  CHECK(error_code(sent[0]) == -32800);
  CHECK(failed);
}

TEST_CASE("framing errors are reported as parse errors with id null", "[dispatch]") {
  Session s;
  s.dispatcher.receive_framing_error("too big");
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["id"].is_null());
  CHECK(error_code(sent[0]) == -32700);
}

// Oversized messages: the transport keeps their first bytes (FrameReader::kOversizedPrefixBytes).

TEST_CASE("an oversized request is answered -32600 under its id", "[dispatch]") {
  Session s;
  s.initialize();
  s.dispatcher.receive_oversized(70000000, 67108864,
                                 R"({"jsonrpc":"2.0","id":12,"method":"textDocument/hover","params":{"te)");
  s.dispatcher.receive_oversized(70000000, 67108864, R"({"id":"abc","method":"x"})");
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0]["id"] == 12);
  CHECK(error_code(sent[0]) == -32600);
  CHECK(sent[0]["error"]["message"].get<std::string>().find("70000000 bytes exceeds the limit of 67108864") !=
        std::string::npos);
  CHECK(sent[1]["id"] == "abc");
  CHECK(s.dispatcher.pending_requests() == 0);
}

TEST_CASE("an oversized message without a usable id is reported with showMessage", "[dispatch]") {
  Session s;
  s.initialize();
  // A notification; an "id" inside params that is not the message's; an id cut off by the end
  // of the prefix (it might have been 123); not JSON at all.
  for (std::string prefix :
       {std::string(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"id":5,"te)"),
        std::string(R"({"jsonrpc":"2.0","id":12)"), std::string("xxxxxxxx")}) {
    s.dispatcher.receive_oversized(70000000, 67108864, prefix);
    auto sent = s.sink.take();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["method"] == "window/showMessage");
    CHECK(sent[0]["params"]["type"] == 1);
    std::string message = sent[0]["params"]["message"];
    CHECK(message.find("70000000 bytes") != std::string::npos);
    CHECK(message.find("limit of 67108864 bytes") != std::string::npos);
  }
  s.dispatcher.receive_oversized(70000000, 67108864, R"({"method":"textDocument/didOpen","params":{)");
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["params"]["message"].get<std::string>().find("(textDocument/didOpen)") != std::string::npos);
}

TEST_CASE("an oversized response fails the call that waits for it", "[dispatch]") {
  Session s;
  s.initialize();
  std::optional<kl::lsp::RpcError> failure;
  s.dispatcher.call("workspace/configuration", json::object(), [&](const json*, const kl::lsp::RpcError* e) {
    if (e) failure = *e;
  });
  json call = s.sink.take().at(0);
  std::string prefix = R"({"jsonrpc":"2.0","id":)" + call["id"].dump() + R"(,"result":[{"a)";
  s.dispatcher.receive_oversized(70000000, 67108864, prefix);
  REQUIRE(failure);
  CHECK(failure->message.find("over the limit") != std::string::npos);
  auto sent = s.sink.take();
  REQUIRE(sent.size() == 1);  // no answer to a response; the user is told
  CHECK(sent[0]["method"] == "window/showMessage");
}
