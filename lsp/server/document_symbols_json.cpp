#include "lsp/server/document_symbols_json.h"

namespace kl::lsp {
namespace {

// LSP SymbolKind numbers.
int lsp_symbol_kind(SymbolKind kind) {
  switch (kind) {
    case SymbolKind::Kernel:
      return 12;  // Function
    case SymbolKind::DeviceFunction:
      return 12;  // Function
    case SymbolKind::Library:
      return 2;  // Module
    case SymbolKind::Operator:
      return 6;  // Method
  }
  return 12;
}

json hierarchical(const SymbolInfo& symbol, const PositionConverter& converter) {
  json out = {{"name", symbol.name},
              {"detail", symbol.detail},
              {"kind", lsp_symbol_kind(symbol.kind)},
              {"range", converter.to_lsp(symbol.range)},
              {"selectionRange", converter.to_lsp(symbol.selection)}};
  if (!symbol.children.empty()) {
    out["children"] = json::array();
    for (const auto& child : symbol.children) out["children"].push_back(hierarchical(child, converter));
  }
  return out;
}

void flatten(const SymbolInfo& symbol, const PositionConverter& converter, const std::string& uri,
             const std::string& container, json& out) {
  json item = {{"name", symbol.name},
               {"kind", lsp_symbol_kind(symbol.kind)},
               {"location", {{"uri", uri}, {"range", converter.to_lsp(symbol.range)}}}};
  if (!container.empty()) item["containerName"] = container;
  out.push_back(std::move(item));
  for (const auto& child : symbol.children) flatten(child, converter, uri, symbol.name, out);
}

}  // namespace

json to_lsp_symbols(const std::vector<SymbolInfo>& symbols, const PositionConverter& converter,
                    bool hierarchical_support, const std::string& uri) {
  json out = json::array();
  for (const auto& symbol : symbols) {
    if (hierarchical_support)
      out.push_back(hierarchical(symbol, converter));
    else
      flatten(symbol, converter, uri, "", out);
  }
  return out;
}

}  // namespace kl::lsp
