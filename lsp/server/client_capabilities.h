#pragma once
// What the client said it can do in `initialize`, reduced to the questions the server asks.
// Read once on the I/O thread, immutable afterwards (safe to read from workers).
#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

struct ClientCapabilities {
  EncodingChoice encoding;
  bool work_done_progress = false;          // window.workDoneProgress
  bool configuration = false;               // workspace.configuration
  bool watched_files_registration = false;  // workspace.didChangeWatchedFiles.dynamicRegistration
  bool related_information = true;          // textDocument.publishDiagnostics.relatedInformation
  bool code_description = true;             // textDocument.publishDiagnostics.codeDescriptionSupport
  bool hierarchical_symbols = false;        // textDocument.documentSymbol.hierarchicalDocumentSymbolSupport
  bool code_action_literals = false;        // textDocument.codeAction.codeActionLiteralSupport
  bool pull_diagnostics = false;            // textDocument.diagnostic
  bool code_lens_refresh = false;           // workspace.codeLens.refreshSupport
  bool show_document = false;               // window.showDocument.support
};

ClientCapabilities read_client_capabilities(const json& initialize_params);

}  // namespace kl::lsp
