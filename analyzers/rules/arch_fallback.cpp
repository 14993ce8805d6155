#include "analyzers/rules/arch_fallback.h"

#include <regex>

namespace kl::analyzers {
namespace {

std::string indentation_of(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return std::string(line.substr(0, n));
}

// `[type] x = __reduce_OP_sync(mask, value);` (or `x op= ...` is not a reduction of x alone, and
// is left to the author). The shuffle tree gives every lane the reduction of the 32 lanes' values,
// as redux.sync does; with a partial mask it is only right when the masked-out lanes hold the
// operation's identity, which the TODO-free fallback cannot know, so only the full mask qualifies.
std::optional<std::string> warp_reduction(std::string_view statement) {
  static const std::regex pattern(
      R"(^\s*((?:(?:unsigned|signed|int|long|const|auto|uint32_t|int32_t)\s+)*)([A-Za-z_]\w*)\s*=\s*__reduce_(add|min|max|and|or|xor)_sync\s*\(\s*(0x[fF]{8}[uU]?|0xffffffff[uU]?|~0[uU]?|-1)\s*,\s*([^;]+?)\s*\)\s*;\s*(//.*)?$)");
  std::string text(statement);
  std::smatch m;
  if (!std::regex_match(text, m, pattern)) return std::nullopt;
  std::string declared = m[1].str(), target = m[2].str(), op = m[3].str(), mask = m[4].str(), value = m[5].str();
  std::string indent = indentation_of(statement);
  std::string step;
  if (op == "add") step = target + " += __shfl_xor_sync(" + mask + ", " + target + ", offset);";
  else if (op == "min") step = target + " = min(" + target + ", __shfl_xor_sync(" + mask + ", " + target + ", offset));";
  else if (op == "max") step = target + " = max(" + target + ", __shfl_xor_sync(" + mask + ", " + target + ", offset));";
  else {
    std::string symbol = op == "and" ? "&" : op == "or" ? "|" : "^";
    step = target + " " + symbol + "= __shfl_xor_sync(" + mask + ", " + target + ", offset);";
  }
  std::string out = value == target && declared.empty() ? "" : indent + declared + target + " = " + value + ";\n";
  out += indent + "for (int offset = 16; offset > 0; offset >>= 1) " + step + "\n";
  return out;
}

}  // namespace

ArchFallback arch_fallback(const Feature& feature, std::string_view statement) {
  if (feature.id == "__reduce_*_sync")
    if (auto lines = warp_reduction(statement)) return {*lines, true};
  std::string indent = indentation_of(statement);
  ArchFallback todo;
  todo.lines = indent + "// TODO: code for the archs without " + feature.requirement() + " (" + feature.summary +
               ").\n#warning \"kernel-lsp: this code is missing for archs without " + feature.requirement() + "\"\n";
  return todo;
}

}  // namespace kl::analyzers
