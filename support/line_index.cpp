#include "support/line_index.h"

#include <algorithm>

namespace kl {
namespace {
// Length in bytes of the UTF-8 sequence that starts with `lead`; 1 for stray continuation bytes,
// so malformed text still advances.
size_t utf8_sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 1;
}
}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts_.push_back(i + 1);
  }
}

size_t LineIndex::line_start(uint32_t line) const {
  if (line >= line_starts_.size()) return text_.size();
  return line_starts_[line];
}

std::string_view LineIndex::line_text(uint32_t line) const {
  if (line >= line_starts_.size()) return {};
  size_t begin = line_starts_[line];
  size_t end = line + 1 < line_starts_.size() ? line_starts_[line + 1] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return text_.substr(begin, end - begin);
}

void LineIndex::position_of(size_t offset, uint32_t& line, uint32_t& utf8_column) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  line = static_cast<uint32_t>(std::distance(line_starts_.begin(), it) - 1);
  utf8_column = static_cast<uint32_t>(offset - line_starts_[line]);
}

uint32_t LineIndex::utf8_to_utf16_column(uint32_t line, uint32_t utf8_column) const {
  std::string_view s = line_text(line);
  uint32_t units = 0;
  size_t i = 0;
  while (i < s.size() && i < utf8_column) {
    size_t len = utf8_sequence_length(static_cast<unsigned char>(s[i]));
    units += len == 4 ? 2 : 1;
    i += len;
  }
  // Columns past the end of the line (e.g. the position after the last character) stay past it.
  if (utf8_column > s.size()) units += utf8_column - static_cast<uint32_t>(s.size());
  return units;
}

uint32_t LineIndex::utf16_to_utf8_column(uint32_t line, uint32_t utf16_column) const {
  std::string_view s = line_text(line);
  uint32_t units = 0;
  size_t i = 0;
  while (i < s.size() && units < utf16_column) {
    size_t len = utf8_sequence_length(static_cast<unsigned char>(s[i]));
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return static_cast<uint32_t>(std::min(i, s.size()));
}

size_t LineIndex::offset_of(uint32_t line, uint32_t utf8_column) const {
  if (line >= line_starts_.size()) return text_.size();
  std::string_view s = line_text(line);
  return line_starts_[line] + std::min<size_t>(utf8_column, s.size());
}

}  // namespace kl
