#pragma once
// Maps between byte offsets, (line, UTF-8 column) and (line, UTF-16 column) in one text.
// Built once per document version; lookups are O(log lines). Lines end at '\n'; a '\r' before
// it belongs to the line ending, not to the text.
#include <cstdint>
#include <string_view>
#include <vector>

namespace kl {

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);

  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  // Offset of the first byte of `line` (clamped to the text's end).
  size_t line_start(uint32_t line) const;
  // The line's text without its line ending.
  std::string_view line_text(uint32_t line) const;
  // Byte offset -> 0-based line and UTF-8 byte column.
  void position_of(size_t offset, uint32_t& line, uint32_t& utf8_column) const;
  // Clamped conversions between column units within one line.
  uint32_t utf8_to_utf16_column(uint32_t line, uint32_t utf8_column) const;
  uint32_t utf16_to_utf8_column(uint32_t line, uint32_t utf16_column) const;
  size_t offset_of(uint32_t line, uint32_t utf8_column) const;

 private:
  std::string_view text_;
  std::vector<size_t> line_starts_;
};

}  // namespace kl
