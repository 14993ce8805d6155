#include "lsp/features/document_symbols.h"

#include <algorithm>
#include <array>

#include "lsp/features/source_scan.h"
#include "support/line_index.h"

namespace kl::lsp {
namespace {

constexpr size_t npos = std::string_view::npos;

// Attributes written between the specifier and the name, each with a parenthesised argument.
bool is_attribute_macro(std::string_view word) {
  static constexpr std::array<std::string_view, 5> kAttributes = {"__launch_bounds__", "__align__", "alignas",
                                                                  "__attribute__", "__declspec"};
  return std::find(kAttributes.begin(), kAttributes.end(), word) != kAttributes.end();
}

class Scanner {
 public:
  explicit Scanner(std::string_view text)
      : text_(text), blanked_(blank_comments_and_literals(text)), lines_(text) {}

  analyzers::Position position(size_t offset) const {
    analyzers::Position p;
    lines_.position_of(offset, p.line, p.column);
    return p;
  }
  analyzers::Range range(size_t begin, size_t end) const { return {position(begin), position(end)}; }

  // Every whole-word occurrence of `word` in the blanked text.
  std::vector<size_t> find_word(std::string_view word) const {
    std::vector<size_t> hits;
    std::string_view b = blanked_;
    for (size_t at = b.find(word); at != npos; at = b.find(word, at + word.size())) {
      bool left_ok = at == 0 || !is_identifier_char(b[at - 1]);
      bool right_ok = at + word.size() >= b.size() || !is_identifier_char(b[at + word.size()]);
      if (left_ok && right_ok) hits.push_back(at);
    }
    return hits;
  }

  // A function defined after a specifier (`__global__`, `__device__`) at `from`: its name span
  // and the closing brace of its body. Declarations and variables yield nothing.
  bool function_after(size_t from, TextSpan& name, size_t& body_end) const {
    std::string_view b = blanked_;
    size_t i = from;
    for (;;) {
      size_t paren = b.find_first_of("(;{=", i);
      if (paren == npos || b[paren] != '(') return false;
      size_t name_end = paren;
      while (name_end > from && std::isspace(static_cast<unsigned char>(b[name_end - 1]))) --name_end;
      size_t name_begin = name_end;
      while (name_begin > from && is_identifier_char(b[name_begin - 1])) --name_begin;
      if (name_begin == name_end) return false;  // `__device__ (` : a lambda
      std::string_view word = b.substr(name_begin, name_end - name_begin);
      size_t close = matching_bracket(b, paren);
      if (close == npos) return false;
      if (is_attribute_macro(word)) {
        i = close + 1;
        continue;
      }
      size_t after = b.find_first_of("{;", close + 1);
      if (after == npos || b[after] == ';') return false;
      size_t end = matching_bracket(b, after);
      if (end == npos) return false;
      name = {name_begin, name_end};
      body_end = end + 1;
      return true;
    }
  }

  size_t line_start_of(size_t offset) const {
    uint32_t line, column;
    lines_.position_of(offset, line, column);
    return lines_.line_start(line);
  }

  std::string_view text() const { return text_; }
  std::string_view blanked() const { return blanked_; }

 private:
  std::string_view text_;
  std::string blanked_;
  LineIndex lines_;
};

void add_functions(const Scanner& scan, std::string_view specifier, SymbolKind kind, std::string_view detail,
                   std::vector<SymbolInfo>& out) {
  for (size_t at : scan.find_word(specifier)) {
    TextSpan name;
    size_t end;
    if (!scan.function_after(at + specifier.size(), name, end)) continue;
    SymbolInfo symbol;
    symbol.name = std::string(scan.text().substr(name.begin, name.end - name.begin));
    symbol.detail = std::string(detail);
    symbol.kind = kind;
    symbol.range = scan.range(scan.line_start_of(at), end);
    symbol.selection = scan.range(name.begin, name.end);
    out.push_back(std::move(symbol));
  }
}

// ops.def("name(Tensor x) -> Tensor") / ops.impl("name", torch::kCUDA, &fn) inside a block.
void add_operators(const Scanner& scan, std::string_view module_var, size_t begin, size_t end,
                   SymbolInfo& library) {
  std::string_view b = scan.blanked();
  for (std::string_view call : {std::string_view(".def"), std::string_view(".impl")}) {
    std::string pattern = std::string(module_var) + std::string(call);
    for (size_t at = b.find(pattern, begin); at != npos && at < end; at = b.find(pattern, at + 1)) {
      if (at > 0 && is_identifier_char(b[at - 1])) continue;
      size_t paren = skip_spaces(b, at + pattern.size());
      if (paren == npos || b[paren] != '(') continue;
      size_t close = matching_bracket(b, paren);
      if (close == npos || close > end) continue;
      size_t quote = skip_spaces(b, paren + 1);
      if (quote == npos || scan.text()[quote] != '"') continue;
      size_t closing_quote = scan.text().find('"', quote + 1);
      if (closing_quote == npos || closing_quote > close) continue;
      std::string_view literal = scan.text().substr(quote + 1, closing_quote - quote - 1);
      std::string_view op_name = literal.substr(0, literal.find('('));
      while (!op_name.empty() && op_name.back() == ' ') op_name.remove_suffix(1);
      SymbolInfo op;
      op.name = std::string(op_name.empty() ? literal : op_name);
      op.detail = call == ".def" ? std::string(literal) : "impl";
      op.kind = SymbolKind::Operator;
      op.range = scan.range(at, close + 1);
      op.selection = scan.range(quote, closing_quote + 1);
      library.children.push_back(std::move(op));
    }
  }
  std::sort(library.children.begin(), library.children.end(),
            [](const SymbolInfo& a, const SymbolInfo& c) { return a.range.start < c.range.start; });
}

void add_libraries(const Scanner& scan, std::vector<SymbolInfo>& out) {
  static constexpr std::array<std::string_view, 5> kMacros = {"TORCH_LIBRARY_EXPAND",
                                                              "TORCH_LIBRARY_IMPL_EXPAND", "TORCH_LIBRARY",
                                                              "TORCH_LIBRARY_IMPL", "TORCH_LIBRARY_FRAGMENT"};
  std::string_view b = scan.blanked();
  for (std::string_view macro : kMacros) {
    for (size_t at : scan.find_word(macro)) {
      size_t paren = skip_spaces(b, at + macro.size());
      if (paren == npos || b[paren] != '(') continue;
      size_t close = matching_bracket(b, paren);
      if (close == npos) continue;
      size_t brace = skip_spaces(b, close + 1);
      if (brace == npos || b[brace] != '{') continue;  // a #define of the macro, say
      size_t end = matching_bracket(b, brace);
      if (end == npos) continue;
      std::string_view args = scan.text().substr(paren + 1, close - paren - 1);
      // The module variable is the last argument: TORCH_LIBRARY(ns, m), _IMPL(ns, CUDA, m).
      std::string_view var = args.substr(args.rfind(',') == npos ? 0 : args.rfind(',') + 1);
      while (!var.empty() && std::isspace(static_cast<unsigned char>(var.front()))) var.remove_prefix(1);
      while (!var.empty() && std::isspace(static_cast<unsigned char>(var.back()))) var.remove_suffix(1);
      SymbolInfo library;
      library.name = std::string(macro) + "(" + std::string(args) + ")";
      library.detail = "torch bindings";
      library.kind = SymbolKind::Library;
      library.range = scan.range(at, end + 1);
      library.selection = scan.range(at, at + macro.size());
      if (!var.empty()) add_operators(scan, var, brace, end, library);
      out.push_back(std::move(library));
    }
  }
}

std::string kernel_detail(const analyzers::KernelInfo& kernel) {
  std::string detail = "__global__";
  if (kernel.max_threads_per_block) {
    detail += " __launch_bounds__(" + std::to_string(*kernel.max_threads_per_block);
    if (kernel.min_blocks_per_sm) detail += ", " + std::to_string(*kernel.min_blocks_per_sm);
    detail += ")";
  }
  return detail;
}

bool contains(const analyzers::Range& outer, const analyzers::Range& inner) {
  return !(inner.start < outer.start) && !(outer.end < inner.end);
}

}  // namespace

std::vector<SymbolInfo> document_symbols(std::string_view text, const analyzers::UnitFacts* facts) {
  Scanner scan(text);
  std::vector<SymbolInfo> symbols;
  if (facts && !facts->kernels.empty()) {
    for (const auto& kernel : facts->kernels) {
      SymbolInfo symbol;
      symbol.name = kernel.name;
      symbol.detail = kernel_detail(kernel);
      symbol.kind = SymbolKind::Kernel;
      symbol.selection = kernel.location.range;
      symbol.range = kernel.body_range;
      // Editors reject a selection outside the range; widen the range rather than lose it.
      if (!contains(symbol.range, symbol.selection))
        symbol.range = {std::min(symbol.range.start, symbol.selection.start),
                        std::max(symbol.range.end, symbol.selection.end)};
      symbols.push_back(std::move(symbol));
    }
  } else {
    add_functions(scan, "__global__", SymbolKind::Kernel, "__global__", symbols);
  }
  add_functions(scan, "__device__", SymbolKind::DeviceFunction, "__device__", symbols);
  add_libraries(scan, symbols);
  std::sort(symbols.begin(), symbols.end(),
            [](const SymbolInfo& a, const SymbolInfo& b) { return a.range.start < b.range.start; });
  return symbols;
}

}  // namespace kl::lsp
