#pragma once
// Small helpers on ASCII text that every layer needs: trimming a set of characters off both
// ends and lower-casing. Byte-wise (no locale, no UTF-8 awareness), as every caller's grammar is
// ASCII: HTTP-style headers, compiler messages, PTX, build.toml words, file extensions.
#include <string>
#include <string_view>

namespace kl {

// Whitespace as C's isspace() knows it in the "C" locale.
inline constexpr std::string_view kWhitespace = " \t\n\r\f\v";

// `text` without the characters of `characters` at either end.
std::string_view trim(std::string_view text, std::string_view characters = kWhitespace);

// `text` with A-Z turned into a-z.
std::string ascii_lower(std::string_view text);

// Whether `text` starts with `prefix`, A-Z and a-z alike.
bool starts_with_ignoring_case(std::string_view text, std::string_view prefix);

}  // namespace kl
