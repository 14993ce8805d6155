#pragma once
// Errors as values at module boundaries. An Error carries a message and, where one exists, the
// place in a file that caused it; it is turned into text once, at the edge (CLI or LSP).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace kl {

struct ErrorLocation {
  std::string file;
  uint32_t line = 0;    // 0-based
  uint32_t column = 0;  // 0-based, UTF-8 bytes
};

struct Error {
  std::string message;
  std::optional<ErrorLocation> location;

  // "file:line:col: message" (1-based for people), or the bare message.
  std::string describe() const {
    if (!location) return message;
    return location->file + ":" + std::to_string(location->line + 1) + ":" +
           std::to_string(location->column + 1) + ": " + message;
  }
};

// A value or an Error. Small on purpose: `if (!r) return r.error();` is the whole protocol.
template <typename T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  explicit operator bool() const { return std::holds_alternative<T>(state_); }
  bool ok() const { return static_cast<bool>(*this); }
  T& value() { return std::get<T>(state_); }
  const T& value() const { return std::get<T>(state_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

inline Error make_error(std::string message) { return Error{std::move(message), std::nullopt}; }
inline Error make_error_at(std::string message, std::string file, uint32_t line, uint32_t column) {
  return Error{std::move(message), ErrorLocation{std::move(file), line, column}};
}

}  // namespace kl
