#include "lsp/server/uri.h"

#include <cctype>

#include "support/text.h"

namespace kl::lsp {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::filesystem::path> uri_to_path(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (!kl::starts_with_ignoring_case(uri, kScheme)) return std::nullopt;
  std::string_view rest = uri.substr(kScheme.size());
  // Authority: empty or "localhost"; anything else is a remote file we cannot read.
  size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view authority = rest.substr(0, slash);
  if (!authority.empty() && authority != "localhost") return std::nullopt;
  rest = rest.substr(slash);
  rest = rest.substr(0, rest.find_first_of("?#"));
  std::string decoded;
  decoded.reserve(rest.size());
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size()) {
      int high = hex_value(rest[i + 1]), low = hex_value(rest[i + 2]);
      if (high >= 0 && low >= 0) {
        decoded.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    decoded.push_back(rest[i]);
  }
  return std::filesystem::path(decoded).lexically_normal();
}

std::string path_to_uri(const std::filesystem::path& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string text = path.generic_string();
  std::string uri = "file://";
  if (text.empty() || text.front() != '/') uri.push_back('/');
  for (unsigned char c : text) {
    bool plain = std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      uri.push_back(static_cast<char>(c));
    } else {
      uri.push_back('%');
      uri.push_back(kHex[c >> 4]);
      uri.push_back(kHex[c & 0xF]);
    }
  }
  return uri;
}

}  // namespace kl::lsp
