#include "lsp/server/text_sync.h"

#include "lsp/protocol/params.h"

namespace kl::lsp {

void apply_content_change(std::string& text, const json& change, PositionEncoding encoding) {
  std::string new_text = string_field(change, "text");
  const json* range = optional_field(change, "range");
  if (!range) {
    text = std::move(new_text);
    return;
  }
  size_t begin, end;
  {
    PositionConverter converter(text, encoding);
    analyzers::Range r = converter.range_from_lsp(*range);
    begin = converter.offset_of(r.start);
    end = converter.offset_of(r.end);
  }
  if (end < begin) throw_invalid_params("change range ends before it starts");
  text.replace(begin, end - begin, new_text);
}

void apply_content_changes(std::string& text, const json& changes, PositionEncoding encoding) {
  if (!changes.is_array()) throw_invalid_params("contentChanges must be an array");
  for (const auto& change : changes) apply_content_change(text, change, encoding);
}

}  // namespace kl::lsp
