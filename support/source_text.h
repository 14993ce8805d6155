#pragma once
// C and C++ source as the first pass of a lexer sees it, without a parse: where comments and
// string and character literals begin and end. The one scanner of them that every text-level
// reader shares: the editor's outline, scopes and hovers (lsp/features), the project scanner's
// include list, the opening includes of a parse and the configuration signature's skipped
// branches (analyzers). Not a C++ lexer (no macros, no trigraphs, no digraphs); O(text).
#include <cstddef>
#include <string>
#include <string_view>

namespace kl {

enum class Lexeme {
  Code,          // one character of anything else
  LineComment,   // `// ...`, continued by a backslash at the end of its line
  BlockComment,  // `/* ... */`
  Literal,       // "...", '...', R"delim(...)delim" with any encoding prefix before R
};

struct LexemeExtent {
  Lexeme kind = Lexeme::Code;
  // One past the last character: past `*/` or the closing quote; for a line comment, the line
  // break that ends it (not included); for a literal left open, the end of its line (the break
  // not included) or of the text.
  size_t end = 0;
  bool closed = true;  // false: a block comment, a raw string or a quoted literal never closed
};

// What starts at `at` (< text.size()). A quote between two hexadecimal digits is a digit
// separator (1'000'000), not a literal.
LexemeExtent lexeme_at(std::string_view text, size_t at);

// `text` with comments and the contents of literals replaced by spaces (a raw string keeps its
// `R"` and final quote, a quoted literal its quotes); every byte offset and line break is kept,
// so positions carry over.
std::string blank_comments_and_literals(std::string_view text);

// A character of an identifier: a letter, a digit or `_`.
bool is_identifier_char(char c);

}  // namespace kl
