#pragma once
// Position encodings (LSP 3.17): utf-8 when the client offers it, else the mandatory utf-16.
// Also honours clangd's older `offsetEncoding` extension, which some clients (Neovim before
// 0.10) send instead.
//
// PositionConverter maps positions of one text between the negotiated encoding and the
// analyzers' UTF-8 columns. Build one per text version (O(text)); conversions are O(line).
// Positions past the end of a line or of the text clamp to it, as the protocol says.
#include <string_view>

#include "analyzers/finding.h"
#include "lsp/protocol/json_rpc.h"
#include "support/line_index.h"

namespace kl::lsp {

enum class PositionEncoding { Utf8, Utf16 };

std::string_view encoding_name(PositionEncoding encoding);

struct EncodingChoice {
  PositionEncoding encoding = PositionEncoding::Utf16;
  bool via_offset_encoding = false;  // answer with `offsetEncoding` too
};

// `capabilities` is the client's ClientCapabilities object.
EncodingChoice negotiate_position_encoding(const json& capabilities);

class PositionConverter {
 public:
  PositionConverter(std::string_view text, PositionEncoding encoding);

  json to_lsp(analyzers::Position position) const;
  json to_lsp(const analyzers::Range& range) const;
  // Throw RpcException(InvalidParams) when the JSON is not a Position/Range.
  analyzers::Position from_lsp(const json& position) const;
  analyzers::Range range_from_lsp(const json& range) const;
  size_t offset_of(analyzers::Position position) const;
  const LineIndex& lines() const { return lines_; }

 private:
  std::string_view text_;
  LineIndex lines_;
  PositionEncoding encoding_;
};

}  // namespace kl::lsp
