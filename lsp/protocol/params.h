#pragma once
// Reading request parameters: each accessor throws RpcException(InvalidParams) naming the
// missing or mistyped field, so handlers read params in straight-line code and the dispatcher
// answers -32602 for them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lsp/protocol/json_rpc.h"

namespace kl::lsp {

const json& required_field(const json& object, std::string_view key);
const json* optional_field(const json& object, std::string_view key);  // null when absent/null
std::string string_field(const json& object, std::string_view key);
int64_t integer_field(const json& object, std::string_view key);
uint32_t unsigned_field(const json& object, std::string_view key);
std::optional<std::string> optional_string_field(const json& object, std::string_view key);
[[noreturn]] void throw_invalid_params(std::string message);

}  // namespace kl::lsp
