#include "lsp/features/source_scan.h"

#include <cctype>
#include <vector>

namespace kl::lsp {

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
