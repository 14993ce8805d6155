#include "analyzers/project/include_directives.h"

#include "support/source_text.h"

namespace kl::analyzers {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

size_t skip_blanks(std::string_view s, size_t at) {
  while (at < s.size() && is_blank(s[at])) ++at;
  return at;
}

// The include on one line, read from `code` (the line with comments and literals blanked, which
// tells where the directive is) and `line` (the same line as written, which holds the name).
bool parse_include_line(std::string_view code, std::string_view line, IncludeDirective& out) {
  size_t at = skip_blanks(code, 0);
  if (at == code.size() || code[at] != '#') return false;
  at = skip_blanks(code, at + 1);
  constexpr std::string_view kInclude = "include";
  if (code.substr(at, kInclude.size()) != kInclude) return false;
  at += kInclude.size();
  // `#include_next`, `#includes`: not an include of a named file.
  if (at < code.size() && !is_blank(code[at]) && code[at] != '"' && code[at] != '<') return false;
  at = skip_blanks(code, at);
  if (at == code.size() || (code[at] != '"' && code[at] != '<')) return false;
  const char close = code[at] == '"' ? '"' : '>';
  size_t end = code.find(close, at + 1);
  if (end == std::string_view::npos || end == at + 1) return false;
  out.name = std::string(line.substr(at + 1, end - at - 1));
  out.angled = close == '>';
  return true;
}

}  // namespace

std::vector<IncludeDirective> include_directives(std::string_view text) {
  std::vector<IncludeDirective> found;
  const std::string code = blank_comments_and_literals(text);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    IncludeDirective directive;
    if (parse_include_line(std::string_view(code).substr(start, end - start), text.substr(start, end - start),
                           directive))
      found.push_back(std::move(directive));
    start = end + 1;
  }
  return found;
}

}  // namespace kl::analyzers
