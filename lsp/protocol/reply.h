#pragma once
// The one answer a request gets. A Reply is a cheap copyable handle; whichever copy answers
// first wins and every later answer is dropped (logged), so a request is answered exactly once
// even when the client cancels it while a worker is still computing. If the last copy dies
// unanswered, an InternalError is sent: a handler that forgets to reply cannot leave the
// client waiting.
//
// Any thread may answer. The handle also carries the request's cancellation token (set by
// $/cancelRequest) for long work to poll.
#include <chrono>
#include <memory>
#include <string>

#include "lsp/protocol/json_rpc.h"
#include "support/cancellation.h"

namespace kl::lsp {

class MessageSink;
class RequestTable;

namespace detail {
struct ReplyState;
}

class Reply {
 public:
  explicit Reply(std::shared_ptr<detail::ReplyState> state);

  void result(json value) const;
  void error(RpcError error) const;
  void error(ErrorCode code, std::string message) const { error(RpcError{code, std::move(message)}); }

  bool answered() const;
  bool is_cancelled() const;
  const CancellationHandle& cancellation() const;
  const json& id() const;
  const std::string& method() const;

 private:
  std::shared_ptr<detail::ReplyState> state_;
};

namespace detail {
struct ReplyState {
  ReplyState(json id, std::string method, MessageSink& sink, std::shared_ptr<RequestTable> table);
  ~ReplyState();
  // True when this call is the one that answers.
  bool answer(const json& message);

  json id;
  std::string method;
  MessageSink& sink;
  std::shared_ptr<RequestTable> table;  // to deregister on answer
  CancellationHandle cancel = make_cancellation();
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::atomic<bool> answered{false};
};
}  // namespace detail

}  // namespace kl::lsp
