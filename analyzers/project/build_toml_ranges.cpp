#include "analyzers/project/build_toml_ranges.h"

namespace kl::analyzers {
namespace {

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// toml++ skips a UTF-8 byte order mark before counting columns on the first line.
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

}  // namespace

TomlRangeMapper::TomlRangeMapper(std::string_view text) : text_(text), lines_(text) {}

Position TomlRangeMapper::position(const toml::source_position& position) const {
  if (position.line == 0) return {};  // toml++ uses line 0 for "no position"
  uint32_t line = position.line - 1;
  std::string_view line_text = lines_.line_text(line);
  size_t byte = 0;
  if (line == 0 && line_text.substr(0, kByteOrderMark.size()) == kByteOrderMark)
    byte = kByteOrderMark.size();
  // Walk code points: toml++ counts one column per code point, the analyzers one per byte.
  for (uint32_t column = 1; column < position.column && byte < line_text.size(); ++column) {
    ++byte;
    while (byte < line_text.size() && is_continuation_byte(line_text[byte])) ++byte;
  }
  // A column past the end of the line (an error "at the line ending") stays right after it.
  return {line, static_cast<uint32_t>(byte)};
}

Range TomlRangeMapper::range(const toml::source_region& region) const {
  Range result{position(region.begin), position(region.end)};
  if (result.end < result.start) result.end = result.start;
  return result;
}

Range TomlRangeMapper::span(const toml::source_region& first,
                            const toml::source_region& last) const {
  Range result{position(first.begin), position(last.end)};
  if (result.end < result.start) result.end = result.start;
  return result;
}

Position TomlRangeMapper::end_of_line(uint32_t line) const {
  return {line, static_cast<uint32_t>(lines_.line_text(line).size())};
}

}  // namespace kl::analyzers
