#include "lsp/protocol/params.h"

#include <limits>

namespace kl::lsp {

void throw_invalid_params(std::string message) {
  throw RpcException(ErrorCode::InvalidParams, std::move(message));
}

const json& required_field(const json& object, std::string_view key) {
  if (!object.is_object()) throw_invalid_params("expected an object with '" + std::string(key) + "'");
  auto it = object.find(key);
  if (it == object.end()) throw_invalid_params("missing field '" + std::string(key) + "'");
  return *it;
}

const json* optional_field(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string string_field(const json& object, std::string_view key) {
  const json& value = required_field(object, key);
  if (!value.is_string()) throw_invalid_params("field '" + std::string(key) + "' must be a string");
  return value.get<std::string>();
}

int64_t integer_field(const json& object, std::string_view key) {
  const json& value = required_field(object, key);
  if (!value.is_number_integer()) throw_invalid_params("field '" + std::string(key) + "' must be an integer");
  return value.get<int64_t>();
}

uint32_t unsigned_field(const json& object, std::string_view key) {
  int64_t value = integer_field(object, key);
  if (value < 0 || value > std::numeric_limits<uint32_t>::max())
    throw_invalid_params("field '" + std::string(key) + "' must be a uinteger");
  return static_cast<uint32_t>(value);
}

std::optional<std::string> optional_string_field(const json& object, std::string_view key) {
  const json* value = optional_field(object, key);
  if (!value) return std::nullopt;
  if (!value->is_string()) throw_invalid_params("field '" + std::string(key) + "' must be a string");
  return value->get<std::string>();
}

}  // namespace kl::lsp
