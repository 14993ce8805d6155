#include "lsp/server/position_encoding.h"

#include "lsp/protocol/params.h"

namespace kl::lsp {
namespace {

bool offers_utf8(const json* list) {
  if (!list || !list->is_array()) return false;
  for (const auto& item : *list)
    if (item.is_string() && (item == "utf-8" || item == "utf8")) return true;
  return false;
}

}  // namespace

std::string_view encoding_name(PositionEncoding encoding) {
  return encoding == PositionEncoding::Utf8 ? "utf-8" : "utf-16";
}

EncodingChoice negotiate_position_encoding(const json& capabilities) {
  EncodingChoice choice;
  const json* general = optional_field(capabilities, "general");
  const json* encodings = general ? optional_field(*general, "positionEncodings") : nullptr;
  if (encodings) {
    if (offers_utf8(encodings)) choice.encoding = PositionEncoding::Utf8;
    return choice;
  }
  if (offers_utf8(optional_field(capabilities, "offsetEncoding"))) {
    choice.encoding = PositionEncoding::Utf8;
    choice.via_offset_encoding = true;
  }
  return choice;
}

PositionConverter::PositionConverter(std::string_view text, PositionEncoding encoding)
    : text_(text), lines_(text), encoding_(encoding) {}

json PositionConverter::to_lsp(analyzers::Position position) const {
  uint32_t character = position.column;
  if (encoding_ == PositionEncoding::Utf16 && position.line < lines_.line_count())
    character = lines_.utf8_to_utf16_column(position.line, position.column);
  return json{{"line", position.line}, {"character", character}};
}

json PositionConverter::to_lsp(const analyzers::Range& range) const {
  return json{{"start", to_lsp(range.start)}, {"end", to_lsp(range.end)}};
}

analyzers::Position PositionConverter::from_lsp(const json& position) const {
  uint32_t line = unsigned_field(position, "line");
  uint32_t character = unsigned_field(position, "character");
  if (line >= lines_.line_count()) {
    // Past the last line: the end of the text.
    uint32_t last = lines_.line_count() - 1;
    return {last, static_cast<uint32_t>(lines_.line_text(last).size())};
  }
  std::string_view line_text = lines_.line_text(line);
  uint32_t column;
  if (encoding_ == PositionEncoding::Utf16) {
    column = lines_.utf16_to_utf8_column(line, character);
  } else {
    column = std::min<uint32_t>(character, static_cast<uint32_t>(line_text.size()));
    // Never split a UTF-8 sequence: back up to its first byte.
    while (column > 0 && column < line_text.size() &&
           (static_cast<unsigned char>(line_text[column]) & 0xC0) == 0x80)
      --column;
  }
  return {line, column};
}

analyzers::Range PositionConverter::range_from_lsp(const json& range) const {
  analyzers::Range out{from_lsp(required_field(range, "start")), from_lsp(required_field(range, "end"))};
  if (out.end < out.start) throw_invalid_params("range ends before it starts");
  return out;
}

size_t PositionConverter::offset_of(analyzers::Position position) const {
  return lines_.offset_of(position.line, position.column);
}

}  // namespace kl::lsp
