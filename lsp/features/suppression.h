#pragma once
// "Suppress <rule> on this line": the edit that inserts `// kernel-lsp: ignore[<rule>]` on its
// own line above `line`, indented like that line and ending lines the way the file does. Pure.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analyzers/finding.h"

namespace kl::lsp {

std::string suppression_comment(std::string_view rule);

// nullopt when the line above already suppresses `rule` (the action would change nothing).
std::optional<analyzers::TextEdit> suppression_edit(std::string_view text, const std::string& file,
                                                    uint32_t line, std::string_view rule);

}  // namespace kl::lsp
