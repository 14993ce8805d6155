#include "analyzers/project/include_directives.h"

namespace kl::analyzers {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view skip_blanks(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && is_blank(s[i])) ++i;
  return s.substr(i);
}

// The directive on one line that starts outside a comment, if it is an include.
bool parse_include_line(std::string_view line, IncludeDirective& out) {
  line = skip_blanks(line);
  if (line.empty() || line.front() != '#') return false;
  line = skip_blanks(line.substr(1));
  constexpr std::string_view kInclude = "include";
  if (line.substr(0, kInclude.size()) != kInclude) return false;
  line = line.substr(kInclude.size());
  // `#include_next`, `#includes`: not an include of a named file.
  if (!line.empty() && !is_blank(line.front()) && line.front() != '"' && line.front() != '<') return false;
  line = skip_blanks(line);
  if (line.empty() || (line.front() != '"' && line.front() != '<')) return false;
  const char close = line.front() == '"' ? '"' : '>';
  size_t end = line.find(close, 1);
  if (end == std::string_view::npos || end == 1) return false;
  out.name = std::string(line.substr(1, end - 1));
  out.angled = close == '>';
  return true;
}

// Whether a /* comment is still open at the end of `line`, given whether one was open at its
// start. Quotes are not tracked: an include line has none before its name.
bool block_comment_open_after(std::string_view line, bool open) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (open) {
      if (i + 1 < line.size() && line[i] == '*' && line[i + 1] == '/') {
        open = false;
        ++i;
      }
    } else if (i + 1 < line.size() && line[i] == '/') {
      if (line[i + 1] == '/') return false;  // the rest of the line is a comment
      if (line[i + 1] == '*') {
        open = true;
        ++i;
      }
    }
  }
  return open;
}

}  // namespace

std::vector<IncludeDirective> include_directives(std::string_view text) {
  std::vector<IncludeDirective> found;
  bool in_comment = false;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    IncludeDirective directive;
    if (!in_comment && parse_include_line(line, directive)) found.push_back(std::move(directive));
    in_comment = block_comment_open_after(line, in_comment);
    start = end + 1;
  }
  return found;
}

}  // namespace kl::analyzers
