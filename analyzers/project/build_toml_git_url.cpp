#include "analyzers/project/build_toml_git_url.h"

#include <algorithm>
#include <cctype>

#include "analyzers/project/build_toml_section.h"
#include "support/text.h"

namespace kl::analyzers {
namespace {

bool is_scheme(std::string_view text) {  // ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text.front()))) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  });
}

bool has_space(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

// http and https are "special" URL schemes: the URL parser needs a host after them.
bool has_host(std::string_view rest) {
  while (!rest.empty() && (rest.front() == '/' || rest.front() == '\\')) rest.remove_prefix(1);
  return !rest.empty() && rest.front() != '?' && rest.front() != '#' &&
         !has_space(rest.substr(0, rest.find('/')));
}

std::string not_a_git_url(std::string_view text) {
  return "must be a git URL such as \"https://github.com/org/repo\" or \"git@github.com:org/repo.git\", not "
         "\"" +
         std::string(text) + "\"";
}

}  // namespace

std::optional<std::string> git_url_problem(std::string_view text, std::span<const std::string_view> schemes) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return not_a_git_url(text);
  const std::string_view before = text.substr(0, colon);
  const std::string_view after = text.substr(colon + 1);
  if (is_scheme(before)) {  // a URL
    const std::string scheme = kl::ascii_lower(before);
    if ((scheme == "http" || scheme == "https") && !has_host(after)) return not_a_git_url(text);
    if (std::find(schemes.begin(), schemes.end(), scheme) != schemes.end()) return std::nullopt;
    return "has the unsupported scheme `" + scheme + "` (kernel-builder accepts " + joined_list(schemes) +
           ")";
  }
  // SCP-like: host:path, the path relative (ssh://host/path is what it means).
  if (before.empty() || has_space(before) || before.find('/') != std::string_view::npos || after.empty() ||
      after.front() == '/')
    return not_a_git_url(text);
  return std::nullopt;
}

}  // namespace kl::analyzers
