// Position encodings: negotiation, and conversions that stay right for non-ASCII text.
#include <catch2/catch.hpp>

#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"
#include "lsp/server/uri.h"

using kl::lsp::json;
using kl::lsp::PositionConverter;
using kl::lsp::PositionEncoding;

TEST_CASE("utf-8 is chosen when offered, utf-16 otherwise", "[encoding]") {
  auto choose = [](json caps) { return kl::lsp::negotiate_position_encoding(caps); };
  CHECK(choose({{"general", {{"positionEncodings", {"utf-16", "utf-8"}}}}}).encoding ==
        PositionEncoding::Utf8);
  CHECK(choose({{"general", {{"positionEncodings", {"utf-16"}}}}}).encoding == PositionEncoding::Utf16);
  CHECK(choose({{"general", {{"positionEncodings", {"utf-32"}}}}}).encoding == PositionEncoding::Utf16);
  CHECK(choose(json::object()).encoding == PositionEncoding::Utf16);
  CHECK(choose(nullptr).encoding == PositionEncoding::Utf16);
  auto legacy = choose({{"offsetEncoding", {"utf-8", "utf-16"}}});
  CHECK(legacy.encoding == PositionEncoding::Utf8);
  CHECK(legacy.via_offset_encoding);
  // The standard field wins over the extension.
  CHECK(choose({{"general", {{"positionEncodings", {"utf-16"}}}}, {"offsetEncoding", {"utf-8"}}}).encoding ==
        PositionEncoding::Utf16);
}

// "é" is 2 bytes / 1 UTF-16 unit, "中" 3 bytes / 1 unit, "😀" 4 bytes / 2 units.
const std::string kText = "int x; // é中😀 y\nsecond\r\nthird";

TEST_CASE("UTF-8 columns convert to UTF-16 and back", "[encoding]") {
  PositionConverter utf16(kText, PositionEncoding::Utf16);
  size_t y = kText.find(" y") + 1;  // byte column of 'y' on line 0
  json lsp = utf16.to_lsp(kl::analyzers::Position{0, static_cast<uint32_t>(y)});
  CHECK(lsp["line"] == 0);
  CHECK(lsp["character"] == 10 + 1 + 1 + 2 + 1);  // "int x; // " + é + 中 + 😀(2) + " "
  auto back = utf16.from_lsp(lsp);
  CHECK(back.line == 0);
  CHECK(back.column == y);

  PositionConverter utf8(kText, PositionEncoding::Utf8);
  CHECK(utf8.to_lsp(kl::analyzers::Position{0, static_cast<uint32_t>(y)})["character"] == y);
  CHECK(utf8.from_lsp(json{{"line", 0}, {"character", y}}).column == y);
}

TEST_CASE("positions past the end clamp to it", "[encoding]") {
  PositionConverter utf16(kText, PositionEncoding::Utf16);
  auto p = utf16.from_lsp(json{{"line", 1}, {"character", 99}});
  CHECK(p.line == 1);
  CHECK(p.column == 6);  // "second", the \r is the line ending
  auto end = utf16.from_lsp(json{{"line", 42}, {"character", 0}});
  CHECK(end.line == 2);
  CHECK(end.column == 5);
  CHECK(utf16.offset_of(end) == kText.size());
}

TEST_CASE("a UTF-8 column inside a character snaps to its start", "[encoding]") {
  PositionConverter utf8(kText, PositionEncoding::Utf8);
  size_t e_acute = kText.find("é");
  CHECK(utf8.from_lsp(json{{"line", 0}, {"character", e_acute + 1}}).column == e_acute);
}

TEST_CASE("a UTF-16 column inside a surrogate pair does not split the character", "[encoding]") {
  PositionConverter utf16(kText, PositionEncoding::Utf16);
  // 😀 occupies UTF-16 columns 12..13; column 13 is its second half.
  auto p = utf16.from_lsp(json{{"line", 0}, {"character", 13}});
  std::string_view line0 = std::string_view(kText).substr(0, kText.find('\n'));
  CHECK((p.column == line0.find("😀") || p.column == line0.find("😀") + 4));
}

TEST_CASE("malformed positions are invalid params", "[encoding]") {
  PositionConverter utf16(kText, PositionEncoding::Utf16);
  CHECK_THROWS_AS(utf16.from_lsp(json{{"line", -1}, {"character", 0}}), kl::lsp::RpcException);
  CHECK_THROWS_AS(utf16.from_lsp(json{{"line", 0}}), kl::lsp::RpcException);
  CHECK_THROWS_AS(utf16.range_from_lsp(json{{"start", {{"line", 1}, {"character", 0}}},
                                            {"end", {{"line", 0}, {"character", 0}}}}),
                  kl::lsp::RpcException);
}

TEST_CASE("file URIs round-trip, including spaces and non-ASCII", "[uri]") {
  std::filesystem::path path = "/tmp/my kernels/résumé#1.cu";
  std::string uri = kl::lsp::path_to_uri(path);
  CHECK(uri == "file:///tmp/my%20kernels/r%C3%A9sum%C3%A9%231.cu");
  CHECK(kl::lsp::uri_to_path(uri) == path);
  CHECK(kl::lsp::uri_to_path("file:///a/b/../c.cu") == std::filesystem::path("/a/c.cu"));
  CHECK(kl::lsp::uri_to_path("file://localhost/x.cu") == std::filesystem::path("/x.cu"));
  CHECK_FALSE(kl::lsp::uri_to_path("untitled:Untitled-1"));
  CHECK_FALSE(kl::lsp::uri_to_path("file://server/share/x.cu"));
}
