// support/text.h: the ASCII helpers every layer shares.
#include "support/text.h"

#include <catch2/catch.hpp>

TEST_CASE("trim takes the given characters off both ends only") {
  CHECK(kl::trim("  \t value \r\n") == "value");
  CHECK(kl::trim(" a b ") == "a b");
  CHECK(kl::trim(" \t\r\n\f\v").empty());
  CHECK(kl::trim("").empty());
  CHECK(kl::trim("\r\nx\n", " \t") == "\r\nx\n");
  CHECK(kl::trim("\tx \r", " \t\r") == "x");
}

TEST_CASE("ascii_lower lowers A-Z and nothing else") {
  CHECK(kl::ascii_lower("File://HOST/Ab_9") == "file://host/ab_9");
  CHECK(kl::ascii_lower("\xC3\x89t\xC3\xA9") == "\xC3\x89t\xC3\xA9");  // UTF-8 bytes pass through
}

TEST_CASE("starts_with_ignoring_case") {
  CHECK(kl::starts_with_ignoring_case("FILE:///tmp/a.cu", "file://"));
  CHECK(kl::starts_with_ignoring_case("kl-RMSNorm", "KL-rms"));
  CHECK_FALSE(kl::starts_with_ignoring_case("fil", "file"));
  CHECK_FALSE(kl::starts_with_ignoring_case("https://x", "file://"));
  CHECK(kl::starts_with_ignoring_case("anything", ""));
}
