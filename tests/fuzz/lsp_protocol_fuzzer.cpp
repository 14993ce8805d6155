// libFuzzer target for the server's untrusted input path: bytes → FrameReader (framing) →
// Dispatcher (JSON-RPC), oversized messages included. Checks, beyond "no crash, no leak, no UB":
//  - everything the server writes is a JSON-RPC 2.0 object;
//  - no request id is answered more often than it was sent (exactly-once, modulo reused ids);
//  - after the session is abandoned, every request has been answered.
// The first input byte picks the chunk size, so splits across reads are explored too.
#include <spdlog/spdlog.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "lsp/protocol/dispatcher.h"
#include "lsp/protocol/message_prefix.h"
#include "lsp/transport/frame_reader.h"

namespace {

using kl::lsp::json;

class CheckingSink final : public kl::lsp::MessageSink {
 public:
  void send(std::string_view message) override {
    json parsed = json::parse(message);  // throws (→ crash report) if the server wrote bad JSON
    if (!parsed.is_object() || parsed.value("jsonrpc", "") != "2.0") __builtin_trap();
    if (parsed.contains("id") && !parsed.contains("method") && !parsed["id"].is_null())
      answered[parsed["id"].dump()]++;
  }
  std::map<std::string, int> answered;
};

// Messages the dispatcher must answer under their own id: objects with a usable id that are not
// responses (a response has no method and a result or an error). Invalid ones are answered
// too (-32600 with their id).
void count_request(std::string_view body, std::map<std::string, int>& sent) {
  json message = json::parse(body, nullptr, false);
  if (message.is_discarded() || !message.is_object()) return;
  auto id = message.find("id");
  if (id == message.end() || (!id->is_string() && !id->is_number_integer())) return;
  bool is_response = !message.contains("method") && (message.contains("result") || message.contains("error"));
  if (!is_response) sent[id->dump()]++;
}

// An oversized request is answered under its id when the id is in the prefix the reader kept.
void count_oversized_request(std::string_view prefix, std::map<std::string, int>& sent) {
  kl::lsp::MessagePrefix head = kl::lsp::scan_message_prefix(prefix);
  if (head.id && !head.is_response) sent[head.id->dump()]++;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // logging every malformed input only slows the search
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t chunk = 1 + data[0] % 64;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);

  CheckingSink sink;
  std::map<std::string, int> sent;
  std::vector<kl::lsp::Reply> parked;
  {
    kl::lsp::Dispatcher dispatcher(sink);
    dispatcher.on_request("initialize", [](const json&, kl::lsp::Reply r) { r.result(json::object()); });
    dispatcher.on_request("echo", [](const json& p, kl::lsp::Reply r) { r.result(p); });
    dispatcher.on_request("twice", [](const json&, kl::lsp::Reply r) {
      r.result(1);
      r.result(2);
    });
    dispatcher.on_request("throws", [](const json& p, kl::lsp::Reply) { (void)p.at("missing").get<int>(); });
    dispatcher.on_request("park", [&](const json&, kl::lsp::Reply r) { parked.push_back(r); });
    dispatcher.on_notification("note", [](const json& p) { (void)p.at("x"); });

    kl::lsp::FrameReader reader(/*max_body_bytes=*/4096);
    for (size_t at = 0; at < input.size() && !dispatcher.exit_requested(); at += chunk) {
      reader.feed(input.substr(at, chunk));
      while (auto event = reader.next()) {
        switch (event->kind) {
          case kl::lsp::FrameEvent::Kind::Message:
            count_request(event->payload, sent);
            dispatcher.receive(event->payload);
            break;
          case kl::lsp::FrameEvent::Kind::Error:
            dispatcher.receive_framing_error(event->payload);
            break;
          case kl::lsp::FrameEvent::Kind::Oversized:
            count_oversized_request(event->payload, sent);
            dispatcher.receive_oversized(event->body_bytes, reader.max_body_bytes(), event->payload);
            break;
        }
        if (dispatcher.exit_requested()) break;
      }
    }
    dispatcher.abandon_pending();
  }
  parked.clear();  // last copies: must not answer again
  for (const auto& [id, count] : sink.answered) {
    auto it = sent.find(id);
    if (it == sent.end() || count > it->second) __builtin_trap();
  }
  for (const auto& [id, count] : sent)
    if (!sink.answered.count(id)) __builtin_trap();  // a request left unanswered
  return 0;
}
