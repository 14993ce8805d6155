#include "lsp/features/suppression.h"

#include "support/line_index.h"

namespace kl::lsp {

std::string suppression_comment(std::string_view rule) {
  return "// kernel-lsp: ignore[" + std::string(rule) + "]";
}

std::optional<analyzers::TextEdit> suppression_edit(std::string_view text, const std::string& file,
                                                    uint32_t line, std::string_view rule) {
  LineIndex lines(text);
  if (line >= lines.line_count()) line = lines.line_count() - 1;
  std::string comment = suppression_comment(rule);
  if (line > 0) {
    std::string_view above = lines.line_text(line - 1);
    if (above.find(comment) != std::string_view::npos) return std::nullopt;
  }
  std::string_view target = lines.line_text(line);
  size_t indent = target.find_first_not_of(" \t");
  if (indent == std::string_view::npos) indent = target.size();
  // Follow the file's line endings: a CRLF file stays CRLF.
  size_t end_of_text = lines.line_start(line) + target.size();
  bool crlf = end_of_text < text.size() && text[end_of_text] == '\r';
  analyzers::TextEdit edit;
  edit.file = file;
  edit.range = {{line, 0}, {line, 0}};
  edit.new_text = std::string(target.substr(0, indent)) + comment + (crlf ? "\r\n" : "\n");
  return edit;
}

}  // namespace kl::lsp
