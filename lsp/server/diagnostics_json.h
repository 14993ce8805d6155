#pragma once
// Findings → LSP Diagnostics: source "kernel-lsp", code = rule id, codeDescription.href = the
// rule's guidance page as `links` names it (the installed page, or under the user's docsBaseUrl;
// none when there is no page), severity mapped, relatedInformation from the notes (e.g. the build.toml
// line that promised the architecture), and the fixes, already converted to WorkspaceEdits in
// the negotiated encoding, in `data` for textDocument/codeAction. The message already carries
// the fix hint for clients (agents) that never ask for code actions. Pure given the cache.
#include <filesystem>
#include <vector>

#include "analyzers/finding.h"
#include "guidance/guidance_links.h"
#include "lsp/protocol/json_rpc.h"
#include "lsp/server/client_capabilities.h"
#include "lsp/server/converter_cache.h"

namespace kl::lsp {

inline constexpr const char* kDiagnosticSource = "kernel-lsp";

int lsp_severity(analyzers::Severity severity);

json to_lsp_diagnostics(const std::vector<analyzers::Finding>& findings,
                        const std::filesystem::path& document, ConverterCache& converters,
                        const ClientCapabilities& client, const guidance::GuidanceLinks& links);

// {"changes": {uri: [TextEdit]}}; edits of files that cannot be read are left out.
json to_workspace_edit(const std::vector<analyzers::TextEdit>& edits, const std::filesystem::path& document,
                       ConverterCache& converters);

}  // namespace kl::lsp
