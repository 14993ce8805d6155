#include "lsp/features/source_scan.h"

#include <cctype>
#include <vector>

namespace kl::lsp {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string blank_comments_and_literals(std::string_view text) {
  std::string out(text);
  size_t i = 0, n = text.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < n) {
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      size_t end = text.find('\n', i);
      if (end == std::string_view::npos) end = n;
      blank(i, end);
      i = end;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      end = end == std::string_view::npos ? n : end + 2;
      blank(i, end);
      i = end;
    } else if (c == 'R' && i + 1 < n && text[i + 1] == '"' &&
               (i == 0 || !is_identifier_char(text[i - 1]) || text[i - 1] == 'u' || text[i - 1] == 'U' ||
                text[i - 1] == 'L' || text[i - 1] == '8')) {
      size_t open = text.find('(', i + 2);
      if (open == std::string_view::npos || open - (i + 2) > 16) {
        ++i;
        continue;
      }
      std::string closing = ")" + std::string(text.substr(i + 2, open - (i + 2))) + "\"";
      size_t end = text.find(closing, open + 1);
      end = end == std::string_view::npos ? n : end + closing.size();
      blank(i + 2, end - 1);  // keep R" and the final quote
      i = end;
    } else if (c == '"' || c == '\'') {
      // A quote inside a number (1'000'000) is a digit separator, not a literal.
      if (c == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1])) && i + 1 < n &&
          std::isxdigit(static_cast<unsigned char>(text[i + 1]))) {
        ++i;
        continue;
      }
      size_t j = i + 1;
      while (j < n && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      size_t end = std::min(j, n);
      blank(i + 1, end);
      i = end + 1;
    } else {
      ++i;
    }
  }
  return out;
}

std::optional<TextSpan> identifier_at(std::string_view text, size_t offset) {
  if (offset > text.size()) return std::nullopt;
  size_t begin = offset, end = offset;
  while (begin > 0 && is_identifier_char(text[begin - 1])) --begin;
  while (end < text.size() && is_identifier_char(text[end])) ++end;
  if (begin == end) return std::nullopt;
  if (std::isdigit(static_cast<unsigned char>(text[begin]))) return std::nullopt;
  return TextSpan{begin, end};
}

size_t matching_bracket(std::string_view blanked, size_t open) {
  if (open >= blanked.size()) return std::string_view::npos;
  std::vector<char> stack;
  for (size_t i = open; i < blanked.size(); ++i) {
    char c = blanked[i];
    if (c == '(' || c == '[' || c == '{') {
      stack.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
    } else if (c == ')' || c == ']' || c == '}') {
      if (stack.empty() || stack.back() != c) return std::string_view::npos;
      stack.pop_back();
      if (stack.empty()) return i;
    }
  }
  return std::string_view::npos;
}

size_t skip_spaces(std::string_view text, size_t from) {
  while (from < text.size() && std::isspace(static_cast<unsigned char>(text[from]))) ++from;
  return from < text.size() ? from : std::string_view::npos;
}

}  // namespace kl::lsp
