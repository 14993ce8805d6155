#include "lsp/server/server_capabilities.h"

namespace kl::lsp {

json initialize_result(const ClientCapabilities& client, bool pull_diagnostics,
                       const std::string& server_version, const std::vector<std::string>& commands) {
  json capabilities = {
      {"positionEncoding", encoding_name(client.encoding.encoding)},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 2 /* incremental */}, {"save", {{"includeText", false}}}}},
      {"hoverProvider", true},
      {"documentSymbolProvider", true},
      // Snippets in completion.
      {"completionProvider", {{"resolveProvider", false}}},
      // Guidance, builds, benchmarks, test runs (LspServer's command table).
      {"executeCommandProvider", {{"commands", commands}}},
      // Build · Benchmark above kernels and in build.toml, and resource usage after a build.
      {"codeLensProvider", {{"resolveProvider", false}}},
      {"workspace",
       {{"workspaceFolders", {{"supported", true}, {"changeNotifications", true}}}}},
  };
  if (client.code_action_literals)
    capabilities["codeActionProvider"] = {{"codeActionKinds", {"quickfix"}}, {"resolveProvider", false}};
  else
    capabilities["codeActionProvider"] = true;
  // Pull diagnostics are opt-in: clients that take both would show every finding twice, and
  // agents read the pushed ones.
  if (pull_diagnostics)
    capabilities["diagnosticProvider"] = {
        {"identifier", "kernel-lsp"}, {"interFileDependencies", true}, {"workspaceDiagnostics", false}};
  json result = {{"capabilities", std::move(capabilities)},
                 {"serverInfo", {{"name", "kernel-lsp"}, {"version", server_version}}}};
  if (client.encoding.via_offset_encoding) result["offsetEncoding"] = encoding_name(client.encoding.encoding);
  return result;
}

}  // namespace kl::lsp
