#pragma once
// textDocument/documentSymbol as JSON: the outline (features/document_symbols.h) as
// DocumentSymbol[], or as the flat SymbolInformation[] for clients without hierarchical
// symbols (children then name their parent as containerName). Pure.
#include <string>
#include <vector>

#include "lsp/features/document_symbols.h"
#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

// `converter` is for the text the outline was read from; `uri` is the document's.
json to_lsp_symbols(const std::vector<SymbolInfo>& symbols, const PositionConverter& converter,
                    bool hierarchical, const std::string& uri);

}  // namespace kl::lsp
