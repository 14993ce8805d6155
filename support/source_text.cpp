#include "support/source_text.h"

#include <cctype>

namespace kl {
namespace {

bool is_hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// The line break that ends a line comment starting at `at`: the first one not spliced away by a
// backslash before it (phase 2 joins such lines before comments are seen), or the text's end.
size_t line_comment_end(std::string_view text, size_t at) {
  size_t end = text.find('\n', at);
  while (end != std::string_view::npos) {
    size_t last = end;
    if (last > at && text[last - 1] == '\r') --last;
    if (last == at || text[last - 1] != '\\') return end;
    end = text.find('\n', end + 1);
  }
  return text.size();
}

// A raw string `R"delim(...)delim"` starting at `at` (its R): the extent, or Code when what
// follows R" is not a delimiter and an opening parenthesis.
LexemeExtent raw_string_at(std::string_view text, size_t at) {
  size_t open = text.find('(', at + 2);
  if (open == std::string_view::npos || open - (at + 2) > 16) return {Lexeme::Code, at + 1, true};
  std::string closing = ")" + std::string(text.substr(at + 2, open - (at + 2))) + "\"";
  size_t end = text.find(closing, open + 1);
  if (end == std::string_view::npos) return {Lexeme::Literal, text.size(), false};
  return {Lexeme::Literal, end + closing.size(), true};
}

}  // namespace

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

LexemeExtent lexeme_at(std::string_view text, size_t at) {
  const size_t n = text.size();
  const char c = text[at];
  const char next = at + 1 < n ? text[at + 1] : '\0';
  if (c == '/' && next == '/') return {Lexeme::LineComment, line_comment_end(text, at + 2), true};
  if (c == '/' && next == '*') {
    size_t end = text.find("*/", at + 2);
    if (end == std::string_view::npos) return {Lexeme::BlockComment, n, false};
    return {Lexeme::BlockComment, end + 2, true};
  }
  // R" starts a raw string after a non-identifier character or an encoding prefix (u8R, LR...).
  if (c == 'R' && next == '"') {
    const char before = at > 0 ? text[at - 1] : ' ';
    if (!is_identifier_char(before) || before == 'u' || before == 'U' || before == 'L' || before == '8')
      return raw_string_at(text, at);
    return {Lexeme::Code, at + 1, true};
  }
  if (c != '"' && c != '\'') return {Lexeme::Code, at + 1, true};
  if (c == '\'' && at > 0 && is_hex_digit(text[at - 1]) && is_hex_digit(next)) return {Lexeme::Code, at + 1, true};
  size_t j = at + 1;
  while (j < n && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
  if (j < n && text[j] == c) return {Lexeme::Literal, j + 1, true};
  return {Lexeme::Literal, j < n ? j : n, false};
}

std::string blank_comments_and_literals(std::string_view text) {
  std::string out(text);
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < out.size(); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  size_t at = 0;
  while (at < text.size()) {
    LexemeExtent lexeme = lexeme_at(text, at);
    switch (lexeme.kind) {
      case Lexeme::Code:
        break;
      case Lexeme::LineComment:
      case Lexeme::BlockComment:
        blank(at, lexeme.end);
        break;
      case Lexeme::Literal:
        if (text[at] == 'R')
          blank(at + 2, lexeme.closed ? lexeme.end - 1 : lexeme.end);  // keep R" and the final quote
        else
          blank(at + 1, lexeme.closed ? lexeme.end - 1 : lexeme.end);  // keep the quotes
        break;
    }
    at = lexeme.end;
  }
  return out;
}

}  // namespace kl
