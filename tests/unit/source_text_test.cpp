// support/source_text.h: the comment and literal scanner every text-level reader shares.
#include "support/source_text.h"

#include <catch2/catch.hpp>

using kl::blank_comments_and_literals;
using kl::Lexeme;
using kl::lexeme_at;

TEST_CASE("lexeme_at tells comments, literals and code apart, with their ends") {
  std::string_view text = "a // b\nc /* d\n e */ \"f\\\"g\" 'h' R\"x(i)\" )x\" j";
  CHECK(lexeme_at(text, 0).kind == Lexeme::Code);
  auto line = lexeme_at(text, 2);
  CHECK(line.kind == Lexeme::LineComment);
  CHECK(line.end == text.find('\n'));  // the break is not part of it
  auto block = lexeme_at(text, text.find("/*"));
  CHECK(block.kind == Lexeme::BlockComment);
  CHECK(block.end == text.find("*/") + 2);
  auto quoted = lexeme_at(text, text.find('"'));
  CHECK(quoted.kind == Lexeme::Literal);
  CHECK(text.substr(text.find('"'), quoted.end - text.find('"')) == "\"f\\\"g\"");  // an escaped quote stays inside
  auto raw = lexeme_at(text, text.find('R'));
  CHECK(raw.kind == Lexeme::Literal);
  CHECK(text.substr(text.find('R'), raw.end - text.find('R')) == "R\"x(i)\" )x\"");  // only )x" closes it
}

TEST_CASE("a backslash at a line's end splices the next line into a line comment") {
  std::string_view text = "// first \\\n still the comment\ncode";
  auto comment = lexeme_at(text, 0);
  CHECK(comment.kind == Lexeme::LineComment);
  CHECK(text.substr(comment.end) == "\ncode");
  std::string_view crlf = "// first \\\r\n still\r\ncode";
  CHECK(crlf.substr(lexeme_at(crlf, 0).end) == "\ncode");
}

TEST_CASE("what is left open is reported as open") {
  auto block = lexeme_at("/* never closed", 0);
  CHECK(block.kind == Lexeme::BlockComment);
  CHECK_FALSE(block.closed);
  CHECK(block.end == 15);
  std::string_view quote = "\"to the end of the line\nnext";
  auto literal = lexeme_at(quote, 0);
  CHECK_FALSE(literal.closed);
  CHECK(literal.end == quote.find('\n'));
  CHECK_FALSE(lexeme_at("R\"d(raw", 0).closed);
}

TEST_CASE("a quote between hex digits is a digit separator, and R is a prefix only before a quote") {
  std::string_view number = "1'000'000 + 0xFF'FF";
  CHECK(lexeme_at(number, 1).kind == Lexeme::Code);
  CHECK(lexeme_at(number, number.rfind('\'')).kind == Lexeme::Code);
  std::string_view word = "FOR\"x\"";  // an identifier ending in R, then a string
  CHECK(lexeme_at(word, 2).kind == Lexeme::Code);
  CHECK(lexeme_at(word, 3).kind == Lexeme::Literal);
  std::string_view prefixed = "u8R\"(a)\"";
  CHECK(lexeme_at(prefixed, 2).kind == Lexeme::Literal);
  CHECK(lexeme_at(prefixed, 2).end == prefixed.size());
}

TEST_CASE("blank_comments_and_literals keeps every offset and line break") {
  std::string text = "int a; // x\n/* y\nz */ s = \"q//\"; c = '/'; r = R\"(/*)\";";
  std::string blank = blank_comments_and_literals(text);
  REQUIRE(blank.size() == text.size());
  CHECK(blank == "int a;     \n    \n     s = \"   \"; c = ' '; r = R\"    \";");
  CHECK(blank_comments_and_literals("// a \\\nb\nc") == "      \n \nc");  // the spliced line is comment too
}
