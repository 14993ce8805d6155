#pragma once
// textDocument/completion as JSON: the snippet completions (features/completion_snippets.h) as
// a CompletionList, and whether the client can take snippet syntax. Pure.
#include <vector>

#include "lsp/features/completion_snippets.h"
#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

// {isIncomplete: false, items}: each a CompletionItem of kind Snippet replacing the typed
// prefix, with insertTextFormat 2 and snippet syntax only when `snippet_support` (else the
// plain expansion), and its Markdown documentation. `converter` is for the document's text.
json to_lsp_completions(const std::vector<SnippetCompletion>& completions, const PositionConverter& converter,
                        bool snippet_support);

// initialize params: textDocument.completion.completionItem.snippetSupport.
bool client_snippet_support(const json& initialize_params);

}  // namespace kl::lsp
