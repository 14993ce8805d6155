#include "lsp/server/client_capabilities.h"

#include "lsp/protocol/params.h"

namespace kl::lsp {
namespace {

// capabilities.a.b.c as a bool, false when any step is missing.
bool flag(const json& root, std::initializer_list<std::string_view> path) {
  const json* node = &root;
  for (std::string_view key : path) {
    node = optional_field(*node, key);
    if (!node) return false;
  }
  return node->is_boolean() ? node->get<bool>() : !node->is_null();
}

}  // namespace

ClientCapabilities read_client_capabilities(const json& initialize_params) {
  ClientCapabilities caps;
  const json* capabilities = optional_field(initialize_params, "capabilities");
  static const json kEmpty = json::object();
  const json& c = capabilities ? *capabilities : kEmpty;
  caps.encoding = negotiate_position_encoding(c);
  caps.work_done_progress = flag(c, {"window", "workDoneProgress"});
  caps.code_lens_refresh = flag(c, {"workspace", "codeLens", "refreshSupport"});
  caps.show_document = flag(c, {"window", "showDocument", "support"});
  caps.configuration = flag(c, {"workspace", "configuration"});
  caps.watched_files_registration = flag(c, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  // Absent means "not said"; most clients that omit it still show it, so only an explicit false counts.
  const json* publish = optional_field(c, "textDocument");
  publish = publish ? optional_field(*publish, "publishDiagnostics") : nullptr;
  if (publish) {
    if (const json* r = optional_field(*publish, "relatedInformation"); r && r->is_boolean())
      caps.related_information = r->get<bool>();
    if (const json* d = optional_field(*publish, "codeDescriptionSupport"); d && d->is_boolean())
      caps.code_description = d->get<bool>();
  }
  caps.hierarchical_symbols =
      flag(c, {"textDocument", "documentSymbol", "hierarchicalDocumentSymbolSupport"});
  caps.code_action_literals = flag(c, {"textDocument", "codeAction", "codeActionLiteralSupport"});
  caps.pull_diagnostics = flag(c, {"textDocument", "diagnostic"});
  return caps;
}

}  // namespace kl::lsp
