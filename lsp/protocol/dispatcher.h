#pragma once
// JSON-RPC dispatch for one LSP session: turns message bodies into handler calls and enforces
// the protocol's rules so that handlers never have to:
//  - every request is answered exactly once (see Reply); notifications never are;
//  - malformed JSON → -32700 with id null, and the session continues;
//  - a message over the transport's size limit → -32600 under its id when the id is in the
//    prefix the transport kept and it is a request; otherwise window/showMessage (Error), and a
//    server→client call whose response it was fails instead of waiting forever;
//  - requests before `initialize` → -32002; a second `initialize` or any request after
//    `shutdown` → -32600; notifications other than `exit` are dropped before initialize;
//  - unknown request → -32601; unknown notification → ignored;
//  - a handler that throws fails that request (RpcException's code, InvalidParams for JSON type
//    errors, else -32603), never the server;
//  - $/cancelRequest cancels the request's token and answers it -32800 at once;
//  - `exit` ends the session: exit code 0 after `shutdown`, else 1.
// It also sends server→client requests and routes their responses to callbacks.
//
// Threading: receive() and handler registration on the I/O thread only; handlers run there
// too and must not block (hand long work to the scheduler with the Reply). call(), notify() and
// Reply may be used from any thread. The sink must outlive every Reply.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "lsp/protocol/json_rpc.h"
#include "lsp/protocol/message_sink.h"
#include "lsp/protocol/reply.h"
#include "lsp/protocol/request_table.h"

namespace kl::lsp {

class Dispatcher {
 public:
  enum class Lifecycle { AwaitingInitialize, Running, ShutDown };

  using RequestHandler = std::function<void(const json& params, Reply reply)>;
  using NotificationHandler = std::function<void(const json& params)>;
  // Exactly one of `result` / `error` is set.
  using ResponseHandler = std::function<void(const json* result, const RpcError* error)>;

  explicit Dispatcher(MessageSink& sink);
  ~Dispatcher();

  void on_request(std::string method, RequestHandler handler);
  void on_notification(std::string method, NotificationHandler handler);

  void receive(std::string_view body);
  // The transport could not frame a message: answer like a parse error, keep going.
  void receive_framing_error(const std::string& description);
  // The transport skipped a message of `body_bytes` over `limit`; `prefix` is its first bytes.
  void receive_oversized(size_t body_bytes, size_t limit, std::string_view prefix);

  void call(std::string_view method, json params, ResponseHandler on_response);
  void notify(std::string_view method, json params);

  Lifecycle lifecycle() const { return lifecycle_.load(); }
  bool exit_requested() const { return exit_requested_.load(); }
  int exit_code() const { return lifecycle_.load() == Lifecycle::ShutDown ? 0 : 1; }
  size_t pending_requests() const { return requests_->size(); }

  // End of session: answer every open request with RequestCancelled (the client is gone or
  // leaving) and fail every outstanding server→client call.
  void abandon_pending();

 private:
  void handle_request(const json& id, const std::string& method, const json& params);
  void handle_notification(const std::string& method, const json& params);
  void handle_response(const json& message);
  void cancel_request(const json& params);
  void send(const json& message);

  MessageSink& sink_;
  std::shared_ptr<RequestTable> requests_ = std::make_shared<RequestTable>();
  std::unordered_map<std::string, RequestHandler> request_handlers_;
  std::unordered_map<std::string, NotificationHandler> notification_handlers_;
  std::atomic<Lifecycle> lifecycle_{Lifecycle::AwaitingInitialize};
  std::atomic<bool> exit_requested_{false};

  std::mutex calls_mutex_;
  int64_t next_call_id_ = 1;
  std::map<int64_t, ResponseHandler> calls_;  // guarded by calls_mutex_
};

}  // namespace kl::lsp
