#pragma once
// Where the protocol layer writes: one serialised JSON-RPC message at a time. Implementations
// must be callable from any thread (replies come from analysis workers).
#include <string_view>

namespace kl::lsp {

class MessageSink {
 public:
  virtual ~MessageSink() = default;
  virtual void send(std::string_view serialized_message) = 0;
};

}  // namespace kl::lsp
