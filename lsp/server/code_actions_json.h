#pragma once
// textDocument/codeAction: for each kernel-lsp diagnostic in the request's context, one
// quickfix per fix the finding carried (its `data`, already a WorkspaceEdit) and
// "Suppress <rule> on this line". Needs no analysis: the request holds everything, plus the
// document's current text for indentation. Pure.
#include <string>
#include <string_view>

#include "lsp/protocol/json_rpc.h"
#include "lsp/workspace/document_kind.h"

namespace kl::lsp {

json code_actions(const json& params, std::string_view text, DocumentKind kind);

}  // namespace kl::lsp
