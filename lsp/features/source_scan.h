#pragma once
// Lexical helpers for features that must work without (or before) a parse: document symbols
// for bindings, the word under the cursor. Comments and literals are support/source_text.h's.
// Not a C++ lexer; good enough for the shapes kernel sources use. Pure functions, O(text).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "support/source_text.h"  // blank_comments_and_literals, is_identifier_char

namespace kl::lsp {

struct TextSpan {
  size_t begin = 0;
  size_t end = 0;  // one past the last byte
};

// The identifier that contains `offset` or ends at it (cursor just after a word).
std::optional<TextSpan> identifier_at(std::string_view text, size_t offset);

// Offset of the bracket closing the one at `open` ('(' '[' '{'), or npos. Expects blanked text.
size_t matching_bracket(std::string_view blanked, size_t open);

// Next non-space offset at or after `from`, or npos.
size_t skip_spaces(std::string_view text, size_t from);

}  // namespace kl::lsp
