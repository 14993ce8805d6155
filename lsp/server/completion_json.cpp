#include "lsp/server/completion_json.h"

#include "lsp/protocol/params.h"

namespace kl::lsp {
namespace {

constexpr int kCompletionItemKindSnippet = 15;
constexpr int kInsertTextFormatPlain = 1;
constexpr int kInsertTextFormatSnippet = 2;

}  // namespace

json to_lsp_completions(const std::vector<SnippetCompletion>& completions, const PositionConverter& converter,
                        bool snippet_support) {
  json result = {{"isIncomplete", false}, {"items", json::array()}};
  for (const auto& completion : completions) {
    const guidance::Snippet& snippet = *completion.snippet;
    json item = {{"label", snippet.prefix},
                 {"kind", kCompletionItemKindSnippet},
                 {"detail", snippet.name},
                 {"filterText", snippet.prefix},
                 {"sortText", snippet.prefix},
                 {"insertTextFormat", snippet_support ? kInsertTextFormatSnippet : kInsertTextFormatPlain},
                 {"textEdit",
                  {{"range", converter.to_lsp(completion.replace)},
                   {"newText", snippet_support ? snippet.body : snippet.expanded}}},
                 {"documentation", {{"kind", "markdown"}, {"value", completion.documentation}}}};
    result["items"].push_back(std::move(item));
  }
  return result;
}

bool client_snippet_support(const json& initialize_params) {
  const json* node = &initialize_params;
  for (std::string_view key :
       {"capabilities", "textDocument", "completion", "completionItem", "snippetSupport"}) {
    node = node->is_object() ? optional_field(*node, key) : nullptr;
    if (!node) return false;
  }
  return node->is_boolean() && node->get<bool>();
}

}  // namespace kl::lsp
