// Incremental text synchronisation: ranges in the negotiated encoding, applied in order; what
// the server does with a change it cannot apply (docs/LSP.md, "Malformed input").
#include <catch2/catch.hpp>

#include "lsp/server/text_sync.h"

using kl::lsp::json;
using kl::lsp::PositionEncoding;
using kl::lsp::SyncOutcome;
using kl::lsp::TextSync;

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

TEST_CASE("positions past a line's end or the last line clamp, as LSP says", "[sync]") {
  std::string text = "ab\ncd";
  kl::lsp::apply_content_change(text, change(0, 9, 1, 0, "-"), PositionEncoding::Utf16);
  CHECK(text == "ab-cd");
  kl::lsp::apply_content_change(text, change(7, 0, 9, 9, "!"), PositionEncoding::Utf8);
  CHECK(text == "ab-cd!");
}

TEST_CASE("a range inverted as sent is refused even where clamping would hide it", "[sync]") {
  // Both ends lie past the end of "ab" and would clamp to the same place; the client still sent
  // an end before its start, and inserting there would be a guess.
  std::string text = "ab";
  CHECK_THROWS_WITH(kl::lsp::apply_content_change(text, change(0, 9, 0, 5, "x"), PositionEncoding::Utf16),
                    Catch::Contains("ends (0:5) before it starts (0:9)"));
  CHECK_THROWS_WITH(kl::lsp::apply_content_change(text, change(0, -1, 0, 1, "x"), PositionEncoding::Utf16),
                    Catch::Contains("start character is negative"));
  CHECK(text == "ab");
}

TEST_CASE("a refused change leaves the document at its last good text, out of sync", "[sync]") {
  TextSync sync;
  const std::filesystem::path file = "/w/k.cu";
  std::string text = "alpha\nbeta\n";

  // All or nothing: the good first change is not applied either.
  json changes = json::array({change(0, 0, 0, 0, ">"), change(1, 3, 1, 1, "")});
  SyncOutcome lost = sync.apply(file, text, changes, PositionEncoding::Utf16);
  CHECK(lost.kind == SyncOutcome::Kind::Lost);
  CHECK(lost.problem.find("change 2 of 2") != std::string::npos);
  CHECK(lost.problem.find("before it starts") != std::string::npos);
  CHECK_FALSE(sync.in_sync(file));

  // Later ranged changes refer to the editor's text, which the server does not have.
  SyncOutcome ignored =
      sync.apply(file, text, json::array({change(0, 0, 0, 1, "A")}), PositionEncoding::Utf16);
  CHECK(ignored.kind == SyncOutcome::Kind::StillLost);
  CHECK_FALSE(sync.in_sync(file));

  // A change with the whole text brings it back; what came before it in the same list is moot.
  json recover = json::array({change(5, 5, 0, 0, "bad"), json{{"text", "gamma\n"}}, change(0, 0, 0, 1, "G")});
  SyncOutcome back = sync.apply(file, text, recover, PositionEncoding::Utf16);
  REQUIRE(back.kind == SyncOutcome::Kind::Applied);
  CHECK(back.text == "Gamma\n");
  CHECK(sync.in_sync(file));
}

TEST_CASE("negative positions and malformed changes put the document out of sync; reopening resets it",
          "[sync]") {
  TextSync sync;
  const std::filesystem::path file = "/w/build.toml";
  SyncOutcome negative =
      sync.apply(file, "x", json::array({change(-1, 0, 0, 0, "")}), PositionEncoding::Utf8);
  CHECK(negative.kind == SyncOutcome::Kind::Lost);
  CHECK(negative.problem.find("start line is negative (-1)") != std::string::npos);
  sync.reset(file);  // didOpen
  CHECK(sync.in_sync(file));

  CHECK(sync.apply(file, "x", json::array({json{{"range", nullptr}}}), PositionEncoding::Utf8).kind ==
        SyncOutcome::Kind::Lost);
  sync.reset(file);
  CHECK(sync.apply(file, "x", json::object(), PositionEncoding::Utf8).kind == SyncOutcome::Kind::Lost);
  CHECK(sync.in_sync("/w/other.cu"));  // one document's trouble is its own

  sync.reset(file);
  SyncOutcome fine = sync.apply(file, "x", json::array({change(0, 1, 0, 1, "y")}), PositionEncoding::Utf8);
  CHECK(fine.kind == SyncOutcome::Kind::Applied);
  CHECK(fine.text == "xy");
}
