#pragma once
// textDocument/hover as JSON: a Hover with Markdown contents and the hovered span, or null.
// Pure.
#include <optional>

#include "lsp/features/hover.h"
#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

// `converter` is for the text the hover was computed on.
json to_lsp_hover(const std::optional<HoverResult>& hover, const PositionConverter& converter);

}  // namespace kl::lsp
