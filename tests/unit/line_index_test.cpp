#include <catch2/catch.hpp>

#include "support/line_index.h"

TEST_CASE("line index maps offsets to lines and UTF-8 columns") {
  kl::LineIndex index("ab\ncd\r\nef");
  CHECK(index.line_count() == 3);
  CHECK(index.line_text(1) == "cd");  // \r belongs to the line ending
  uint32_t line = 0, column = 0;
  index.position_of(4, line, column);
  CHECK(line == 1);
  CHECK(column == 1);
  CHECK(index.offset_of(2, 1) == 8);
}

TEST_CASE("UTF-16 columns count surrogate pairs twice and multi-byte characters once") {
  // "é" is 2 bytes / 1 unit; "😀" is 4 bytes / 2 units.
  kl::LineIndex index("x\xC3\xA9y\xF0\x9F\x98\x80z");
  CHECK(index.utf8_to_utf16_column(0, 3) == 2);  // after "xé"
  CHECK(index.utf8_to_utf16_column(0, 8) == 5);  // after "xéy😀"
  CHECK(index.utf16_to_utf8_column(0, 5) == 8);
  CHECK(index.utf16_to_utf8_column(0, 100) == 9);  // clamped to the line
}
