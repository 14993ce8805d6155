#pragma once
// The LSP / VS Code snippet grammar (the TextMate subset LSP 3.17 specifies): tabstops `$1`,
// `${1}`, placeholders `${1:default}` (nested), choices `${1|a,b|}`, the final `$0`, variables
// `$NAME` / `${NAME:default}`, and `\$`, `\}`, `\\` escapes. Only what the snippets need:
// checking that a body parses, and its text with every placeholder at its default (what
// clients without snippet support insert, and what the nvcc test compiles). Pure.
#include <string>
#include <string_view>

#include "support/result.h"

namespace kl::guidance {

// The body with each placeholder replaced by its default, a mirrored tabstop (`$1` after
// `${1:x}`) by the same default, a choice by its first option and bare tabstops/variables by
// nothing. An error (with the 0-based offset) when a `${` is never closed or is malformed.
Result<std::string> expand_snippet_defaults(std::string_view body);

// Escapes text so that a snippet inserts it literally ('$', '}', '\' get a backslash).
std::string escape_snippet_text(std::string_view text);

}  // namespace kl::guidance
