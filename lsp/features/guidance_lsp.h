#pragma once
// The LSP side of skills and snippets (issue 5), in one place: the `kernel-lsp/guidance`
// request and `kernel-lsp.guidance` command, snippet completion items, guidance hovers on
// build.toml keys, diagnostics for a SKILL.md being edited, and the client's snippetSupport.
// These are JSON shapes and belong with the others in lsp/server; they sit here, beside the
// features they wrap, so that lsp/server's files stay with their owner. lsp_server.cpp only
// registers them. Handlers run on the I/O thread; each reads one snapshot and never blocks on
// analysis (guidance is text lookups).
#include <filesystem>
#include <memory>
#include <string>

#include "lsp/core/kernel_server.h"
#include "lsp/protocol/json_rpc.h"
#include "lsp/server/client_capabilities.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

inline constexpr const char* kGuidanceMethod = "kernel-lsp/guidance";
inline constexpr const char* kGuidanceCommand = "kernel-lsp.guidance";

// params {topic?, ruleId?, construct?, uri?, position?}: ruleId, then construct, then topic;
// when none of them answers, the construct at uri + position (an LSP Position in the negotiated
// encoding). Result: {title, markdown, file (absolute path), uri, line (0-based), skill} or null.
json guidance_request(const json& params, KernelServer& kernel, PositionEncoding encoding);
// workspace/executeCommand {command: "kernel-lsp.guidance", arguments: [<the same object>]}.
json guidance_command(const json& params, KernelServer& kernel, PositionEncoding encoding);

// textDocument/completion: the snippets that fit the document, as CompletionItems (kind
// Snippet; insertTextFormat 2 with snippet syntax only when `snippet_support`, else the plain
// expansion), each with its guidance section as Markdown documentation.
json completion_request(const json& params, KernelServer& kernel, PositionEncoding encoding,
                        bool snippet_support);
// initialize params: textDocument.completion.completionItem.snippetSupport.
bool client_snippet_support(const json& initialize_params);

// textDocument/hover in a build.toml: the guidance for the key under the cursor, or null.
json build_toml_hover(const json& params, const Document& document, const guidance::SkillGuidance& guidance,
                      PositionEncoding encoding);

// A file the server checks as an agent skill (named SKILL.md).
bool is_skill_file(const std::filesystem::path& file);
// Diagnostics (rule "skill") for one SKILL.md text, in the negotiated encoding.
json skill_diagnostics(const std::filesystem::path& file, std::shared_ptr<const std::string> text,
                       const ClientCapabilities& client);

}  // namespace kl::lsp
