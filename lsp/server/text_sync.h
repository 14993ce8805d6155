#pragma once
// textDocument/didChange: applies contentChanges in order, each against the text the previous
// one produced. A change without `range` replaces the whole text; ranges are in the negotiated
// encoding. Throws RpcException(InvalidParams) for malformed changes (the LSP layer then drops
// the document's text rather than guessing). Cost: O(text) per ranged change.
#include <string>

#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

void apply_content_change(std::string& text, const json& change, PositionEncoding encoding);
void apply_content_changes(std::string& text, const json& changes, PositionEncoding encoding);

}  // namespace kl::lsp
