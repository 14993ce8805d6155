#include "analyzers/frontend/leading_includes.h"

#include "support/source_text.h"

namespace kl::analyzers {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Moves `at` past blanks, newlines and comments (a line comment with the lines a backslash
// splices onto it); false when a block comment never ends.
bool skip_space_and_comments(std::string_view text, size_t& at) {
  while (at < text.size()) {
    if (is_blank(text[at]) || text[at] == '\n') {
      ++at;
      continue;
    }
    LexemeExtent lexeme = lexeme_at(text, at);
    if (lexeme.kind != Lexeme::LineComment && lexeme.kind != Lexeme::BlockComment) return true;
    if (!lexeme.closed) return false;
    at = lexeme.end;
  }
  return true;
}

// The rest of the line from `at`, which must hold nothing but blanks or comments that end on it.
bool only_trailing_comment(std::string_view line) {
  size_t at = 0;
  while (at < line.size()) {
    if (is_blank(line[at])) {
      ++at;
      continue;
    }
    LexemeExtent lexeme = lexeme_at(line, at);
    if (lexeme.kind == Lexeme::LineComment) return line.back() != '\\';  // else it hides the next line
    if (lexeme.kind != Lexeme::BlockComment || !lexeme.closed) return false;
    at = lexeme.end;
  }
  return true;
}

std::string_view word_at(std::string_view line, size_t& at) {
  while (at < line.size() && is_blank(line[at])) ++at;
  size_t start = at;
  while (at < line.size() && is_identifier_char(line[at])) ++at;
  return line.substr(start, at - start);
}

}  // namespace

std::vector<std::string> leading_angle_includes(std::string_view text) {
  std::vector<std::string> names;
  size_t at = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") at = 3;  // a UTF-8 byte order mark
  while (skip_space_and_comments(text, at) && at < text.size() && text[at] == '#') {
    size_t end = text.find('\n', at);
    std::string_view line = text.substr(at + 1, (end == std::string_view::npos ? text.size() : end) - at - 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\\') break;
    size_t pos = 0;
    std::string_view directive = word_at(line, pos);
    if (directive == "pragma") {
      if (word_at(line, pos) != "once" || !only_trailing_comment(line.substr(pos))) break;
    } else if (directive == "include") {
      while (pos < line.size() && is_blank(line[pos])) ++pos;
      if (pos >= line.size() || line[pos] != '<') break;
      size_t close = line.find('>', pos + 1);
      if (close == std::string_view::npos || close == pos + 1) break;
      if (!only_trailing_comment(line.substr(close + 1))) break;
      names.emplace_back(line.substr(pos + 1, close - pos - 1));
    } else {
      break;
    }
    at = end == std::string_view::npos ? text.size() : end;
  }
  return names;
}

}  // namespace kl::analyzers
