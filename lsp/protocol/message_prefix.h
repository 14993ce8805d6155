#pragma once
// What the first bytes of a JSON-RPC message say about it, when the rest never arrives (the
// transport skips a message over its size limit and keeps only a prefix). Reads top-level
// members only, with a streaming parser that stops where the prefix does: an "id" inside
// "params" is not the message's id, and a value is taken only once the parser has read past it
// (a prefix ending inside `"id":12` might have said 123). No state, no I/O; O(prefix).
#include <optional>
#include <string>
#include <string_view>

#include "lsp/protocol/json_rpc.h"

namespace kl::lsp {

struct MessagePrefix {
  std::optional<json> id;             // an integer or a string, as JSON-RPC allows
  std::optional<std::string> method;  // when it came before the prefix ended
  bool is_response = false;           // a top-level "result" or "error" was seen
};

MessagePrefix scan_message_prefix(std::string_view prefix);

}  // namespace kl::lsp
