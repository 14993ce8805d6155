#pragma once
// The outline of a kernel source: kernels (from the parse's facts when there are some, else
// from a scan), device functions, and the torch bindings (TORCH_LIBRARY* blocks with their
// ops.def / ops.impl lines). Plain data with UTF-8 ranges; the LSP layer converts. Pure, O(text).
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/model/unit_facts.h"

namespace kl::lsp {

enum class SymbolKind { Kernel, DeviceFunction, Library, Operator };

struct SymbolInfo {
  std::string name;
  std::string detail;
  SymbolKind kind = SymbolKind::Kernel;
  analyzers::Range range;      // the whole definition
  analyzers::Range selection;  // the name; always inside `range`
  std::vector<SymbolInfo> children;
};

std::vector<SymbolInfo> document_symbols(std::string_view text, const analyzers::UnitFacts* facts);

}  // namespace kl::lsp
