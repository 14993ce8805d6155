// Incremental text synchronisation: ranges in the negotiated encoding, applied in order.
#include <catch2/catch.hpp>

#include "lsp/server/text_sync.h"

using kl::lsp::json;
using kl::lsp::PositionEncoding;

namespace {
json change(int l1, int c1, int l2, int c2, std::string text) {
  return {
      {"range", {{"start", {{"line", l1}, {"character", c1}}}, {"end", {{"line", l2}, {"character", c2}}}}},
      {"text", std::move(text)}};
}
}  // namespace

TEST_CASE("insert, replace and delete within and across lines", "[sync]") {
  std::string text = "alpha\nbeta\ngamma\n";
  kl::lsp::apply_content_change(text, change(1, 0, 1, 0, ">"), PositionEncoding::Utf16);
  CHECK(text == "alpha\n>beta\ngamma\n");
  kl::lsp::apply_content_change(text, change(0, 1, 2, 1, "X"), PositionEncoding::Utf16);
  CHECK(text == "aXamma\n");
  kl::lsp::apply_content_change(text, change(0, 0, 0, 6, ""), PositionEncoding::Utf16);
  CHECK(text == "\n");
  kl::lsp::apply_content_change(text, change(1, 0, 1, 0, "end"), PositionEncoding::Utf16);
  CHECK(text == "\nend");
}

TEST_CASE("a change without a range replaces the text", "[sync]") {
  std::string text = "old";
  kl::lsp::apply_content_change(text, json{{"text", "new"}}, PositionEncoding::Utf8);
  CHECK(text == "new");
}

TEST_CASE("changes apply in order, each to the previous result", "[sync]") {
  std::string text = "ab";
  json changes = json::array({change(0, 2, 0, 2, "c"), change(0, 0, 0, 1, ""), change(0, 2, 0, 2, "!")});
  kl::lsp::apply_content_changes(text, changes, PositionEncoding::Utf16);
  CHECK(text == "bc!");
}

TEST_CASE("UTF-16 ranges edit the right bytes after non-ASCII text", "[sync]") {
  std::string text = "😀é x\n";
  // UTF-16: 😀 = 2 units, é = 1, space = 1 → 'x' at column 4.
  kl::lsp::apply_content_change(text, change(0, 4, 0, 5, "y"), PositionEncoding::Utf16);
  CHECK(text == "😀é y\n");
  // The same edit in UTF-8 columns: 😀 = 4 bytes, é = 2, space = 1 → 'y' at column 7.
  kl::lsp::apply_content_change(text, change(0, 7, 0, 8, "z"), PositionEncoding::Utf8);
  CHECK(text == "😀é z\n");
}

TEST_CASE("CRLF line endings are kept", "[sync]") {
  std::string text = "one\r\ntwo\r\n";
  kl::lsp::apply_content_change(text, change(1, 0, 1, 3, "2"), PositionEncoding::Utf16);
  CHECK(text == "one\r\n2\r\n");
  // A column past the end of "one" stops before its \r\n.
  kl::lsp::apply_content_change(text, change(0, 50, 0, 50, "!"), PositionEncoding::Utf16);
  CHECK(text == "one!\r\n2\r\n");
}

TEST_CASE("malformed changes throw and leave the text alone", "[sync]") {
  std::string text = "abc";
  CHECK_THROWS_AS(kl::lsp::apply_content_change(text, change(0, 2, 0, 1, ""), PositionEncoding::Utf8),
                  kl::lsp::RpcException);
  CHECK_THROWS_AS(kl::lsp::apply_content_change(text, json{{"range", nullptr}}, PositionEncoding::Utf8),
                  kl::lsp::RpcException);
  CHECK_THROWS_AS(kl::lsp::apply_content_changes(text, json::object(), PositionEncoding::Utf8),
                  kl::lsp::RpcException);
  CHECK(text == "abc");
}
