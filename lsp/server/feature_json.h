#pragma once
// LSP shapes of the plain feature results: Hover and DocumentSymbol[] (or the flat
// SymbolInformation[] for clients without hierarchical symbols). Pure.
#include <string>
#include <vector>

#include "lsp/features/document_symbols.h"
#include "lsp/features/hover.h"
#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

json to_lsp_hover(const HoverResult& hover, const PositionConverter& converter);
json to_lsp_symbols(const std::vector<SymbolInfo>& symbols, const PositionConverter& converter,
                    bool hierarchical, const std::string& uri);

}  // namespace kl::lsp
