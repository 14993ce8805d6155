#pragma once
// JSON-RPC 2.0 vocabulary shared by the protocol layer: error codes (JSON-RPC's and LSP's),
// error values, and the few message shapes the server writes. No I/O, no state.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace kl::lsp {

using json = nlohmann::json;

enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  UnknownErrorCode = -32001,
  RequestFailed = -32803,
  ServerCancelled = -32802,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

struct RpcError {
  ErrorCode code = ErrorCode::InternalError;
  std::string message;
};

// Thrown by handlers to fail one request with a specific code; the dispatcher turns it into
// the error response. Any other exception becomes InternalError (or InvalidParams for JSON
// type errors while reading params).
class RpcException : public std::exception {
 public:
  RpcException(ErrorCode code, std::string message) : error_{code, std::move(message)} {}
  const char* what() const noexcept override { return error_.message.c_str(); }
  const RpcError& error() const { return error_; }

 private:
  RpcError error_;
};

// Never throws: invalid UTF-8 (file text read from disk ends up in messages) is replaced.
std::string serialize(const json& message);

json make_response(const json& id, json result);
json make_error_response(const json& id, const RpcError& error);
json make_request(const json& id, std::string_view method, json params);
json make_notification(std::string_view method, json params);

}  // namespace kl::lsp
