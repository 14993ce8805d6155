#include "lsp/protocol/dispatcher.h"

#include <spdlog/spdlog.h>

#include <vector>

#include "lsp/protocol/message_prefix.h"

namespace kl::lsp {

Dispatcher::Dispatcher(MessageSink& sink) : sink_(sink) {}

Dispatcher::~Dispatcher() { abandon_pending(); }

void Dispatcher::on_request(std::string method, RequestHandler handler) {
  request_handlers_[std::move(method)] = std::move(handler);
}

void Dispatcher::on_notification(std::string method, NotificationHandler handler) {
  notification_handlers_[std::move(method)] = std::move(handler);
}

void Dispatcher::send(const json& message) { sink_.send(serialize(message)); }

void Dispatcher::receive(std::string_view body) {
  json message;
  try {
    message = json::parse(body);
  } catch (const json::exception& e) {
    spdlog::error("malformed JSON ({} bytes): {}", body.size(), e.what());
    send(make_error_response(nullptr, {ErrorCode::ParseError, std::string("Parse error: ") + e.what()}));
    return;
  }
  if (!message.is_object()) {
    send(make_error_response(nullptr, {ErrorCode::InvalidRequest, "a message must be a JSON object"}));
    return;
  }
  auto id_it = message.find("id");
  bool has_id = id_it != message.end();
  bool valid_id = has_id && (id_it->is_string() || id_it->is_number_integer());
  auto method_it = message.find("method");

  if (method_it == message.end()) {
    if (has_id && (message.contains("result") || message.contains("error"))) {
      handle_response(message);
      return;
    }
    send(make_error_response(valid_id ? *id_it : json(nullptr),
                             {ErrorCode::InvalidRequest, "a message needs a method, or a result/error"}));
    return;
  }
  if (!method_it->is_string()) {
    send(make_error_response(valid_id ? *id_it : json(nullptr),
                             {ErrorCode::InvalidRequest, "method must be a string"}));
    return;
  }
  std::string method = method_it->get<std::string>();
  json params = message.contains("params") ? message["params"] : json(nullptr);
  if (!has_id) {
    handle_notification(method, params);
    return;
  }
  if (!valid_id) {
    send(make_error_response(nullptr, {ErrorCode::InvalidRequest, "id must be an integer or a string"}));
    return;
  }
  handle_request(*id_it, method, params);
}

void Dispatcher::receive_framing_error(const std::string& description) {
  send(make_error_response(nullptr, {ErrorCode::ParseError, description}));
}

void Dispatcher::receive_oversized(size_t body_bytes, size_t limit, std::string_view prefix) {
  MessagePrefix head = scan_message_prefix(prefix);
  std::string what = "a message of " + std::to_string(body_bytes) + " bytes" +
                     (head.method ? " (" + *head.method + ")" : std::string()) + " over the limit of " +
                     std::to_string(limit) + " bytes";
  if (head.id && !head.is_response) {
    // A request the client waits for: answered like any other invalid request, under its id.
    spdlog::error("answering {} (id {}) with InvalidRequest", what, head.id->dump());
    send(make_error_response(
        *head.id, {ErrorCode::InvalidRequest, "request of " + std::to_string(body_bytes) +
                                                  " bytes exceeds the limit of " + std::to_string(limit) +
                                                  " bytes; not processed"}));
    return;
  }
  if (head.id) {
    // The response to one of our calls: fail the call rather than leave it waiting.
    handle_response(
        json{{"id", *head.id},
             {"error", {{"code", static_cast<int>(ErrorCode::InvalidRequest)}, {"message", what}}}});
  }
  // Nobody can be answered: the user is told, so that what the message carried is not lost
  // without a word.
  notify("window/showMessage", json{{"type", 1}, {"message", "kernel-lsp dropped " + what + "."}});
}

void Dispatcher::handle_request(const json& id, const std::string& method, const json& params) {
  spdlog::debug("<-- {} (id {})", method, id.dump());
  auto state = std::make_shared<detail::ReplyState>(id, method, sink_, requests_);
  requests_->add(id, state);
  Reply reply(state);
  state.reset();  // the Reply copies own it from here on

  Lifecycle lifecycle = lifecycle_.load();
  if (method == "initialize" && lifecycle != Lifecycle::AwaitingInitialize) {
    reply.error(ErrorCode::InvalidRequest, "initialize was already received");
    return;
  }
  if (lifecycle == Lifecycle::AwaitingInitialize && method != "initialize") {
    reply.error(ErrorCode::ServerNotInitialized, "the server has not been initialized");
    return;
  }
  if (lifecycle == Lifecycle::ShutDown) {
    reply.error(ErrorCode::InvalidRequest, "the server is shutting down; only exit is accepted");
    return;
  }
  auto handler = request_handlers_.find(method);
  if (handler == request_handlers_.end()) {
    if (method == "shutdown") {
      lifecycle_.store(Lifecycle::ShutDown);
      reply.result(nullptr);
      return;
    }
    reply.error(ErrorCode::MethodNotFound, "method not found: " + method);
    return;
  }
  try {
    handler->second(params, reply);
    if (method == "initialize") lifecycle_.store(Lifecycle::Running);
    if (method == "shutdown") lifecycle_.store(Lifecycle::ShutDown);
  } catch (const RpcException& e) {
    reply.error(e.error());
  } catch (const json::exception& e) {
    reply.error(ErrorCode::InvalidParams, std::string("invalid params: ") + e.what());
  } catch (const std::exception& e) {
    spdlog::error("{} failed: {}", method, e.what());
    reply.error(ErrorCode::InternalError, method + " failed: " + e.what());
  } catch (...) {
    spdlog::error("{} failed with an unknown exception", method);
    reply.error(ErrorCode::InternalError, method + " failed");
  }
}

void Dispatcher::handle_notification(const std::string& method, const json& params) {
  spdlog::debug("<-- {}", method);
  if (method == "exit") {
    exit_requested_.store(true);
  } else if (method == "$/cancelRequest") {
    cancel_request(params);
    return;
  }
  Lifecycle lifecycle = lifecycle_.load();
  if (method != "exit" && lifecycle != Lifecycle::Running) {
    spdlog::debug("dropped notification {} ({})", method,
                  lifecycle == Lifecycle::ShutDown ? "after shutdown" : "before initialize");
    return;
  }
  auto handler = notification_handlers_.find(method);
  if (handler == notification_handlers_.end()) {
    if (method != "exit") spdlog::debug("ignored notification {}", method);
    return;
  }
  try {
    handler->second(params);
  } catch (const std::exception& e) {
    spdlog::error("notification {} failed: {}", method, e.what());
  } catch (...) {
    spdlog::error("notification {} failed with an unknown exception", method);
  }
}

void Dispatcher::cancel_request(const json& params) {
  if (!params.is_object() || !params.contains("id")) return;
  auto state = requests_->find(params["id"]);
  if (!state) return;  // already answered: nothing to do
  state->cancel->cancel();
  Reply(state).error(ErrorCode::RequestCancelled, "cancelled by the client");
}

void Dispatcher::handle_response(const json& message) {
  const json& id = message["id"];
  ResponseHandler handler;
  if (id.is_number_integer()) {
    std::lock_guard<std::mutex> lock(calls_mutex_);
    auto it = calls_.find(id.get<int64_t>());
    if (it != calls_.end()) {
      handler = std::move(it->second);
      calls_.erase(it);
    }
  }
  if (!handler) {
    spdlog::warn("response to unknown request id {}", id.dump());
    return;
  }
  try {
    if (auto error = message.find("error"); error != message.end()) {
      RpcError failure{ErrorCode::UnknownErrorCode, "error"};
      if (error->is_object()) {
        if (error->contains("code") && (*error)["code"].is_number_integer())
          failure.code = static_cast<ErrorCode>((*error)["code"].get<int>());
        if (error->contains("message") && (*error)["message"].is_string())
          failure.message = (*error)["message"].get<std::string>();
      }
      handler(nullptr, &failure);
    } else {
      handler(&message["result"], nullptr);
    }
  } catch (const std::exception& e) {
    spdlog::error("handling the response to request {} failed: {}", id.dump(), e.what());
  }
}

void Dispatcher::call(std::string_view method, json params, ResponseHandler on_response) {
  int64_t id;
  {
    std::lock_guard<std::mutex> lock(calls_mutex_);
    id = next_call_id_++;
    calls_[id] = std::move(on_response);
  }
  spdlog::debug("--> {} (id {})", method, id);
  send(make_request(id, method, std::move(params)));
}

void Dispatcher::notify(std::string_view method, json params) {
  send(make_notification(method, std::move(params)));
}

void Dispatcher::abandon_pending() {
  for (auto& state : requests_->all()) {
    state->cancel->cancel();
    Reply(state).error(ErrorCode::RequestCancelled, "the session ended");
  }
  std::map<int64_t, ResponseHandler> calls;
  {
    std::lock_guard<std::mutex> lock(calls_mutex_);
    calls.swap(calls_);
  }
  RpcError gone{ErrorCode::RequestCancelled, "the session ended"};
  for (auto& [id, handler] : calls) {
    try {
      handler(nullptr, &gone);
    } catch (const std::exception& e) {
      spdlog::error("abandoning request {} failed: {}", id, e.what());
    }
  }
}

}  // namespace kl::lsp
