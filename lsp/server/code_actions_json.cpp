#include "lsp/server/code_actions_json.h"

#include <set>

#include "lsp/features/suppression.h"
#include "lsp/protocol/params.h"
#include "lsp/server/diagnostics_json.h"

namespace kl::lsp {
namespace {

bool quickfix_wanted(const json& context) {
  const json* only = optional_field(context, "only");
  if (!only || !only->is_array()) return true;
  for (const auto& kind : *only) {
    if (!kind.is_string()) continue;
    std::string k = kind.get<std::string>();
    if (k == "quickfix" || k.rfind("quickfix.", 0) == 0 || k.empty()) return true;
  }
  return false;
}

}  // namespace

json code_actions(const json& params, std::string_view text, DocumentKind kind) {
  json actions = json::array();
  const json& document = required_field(params, "textDocument");
  std::string uri = string_field(document, "uri");
  const json& context = required_field(params, "context");
  if (!quickfix_wanted(context)) return actions;
  const json& diagnostics = required_field(context, "diagnostics");
  if (!diagnostics.is_array()) throw_invalid_params("context.diagnostics must be an array");

  std::set<std::pair<uint32_t, std::string>> suppressed;  // one suppression per (line, rule)
  for (const auto& diagnostic : diagnostics) {
    if (!diagnostic.is_object() || diagnostic.value("source", "") != kDiagnosticSource) continue;
    const json* data = optional_field(diagnostic, "data");
    const json* fixes = data ? optional_field(*data, "fixes") : nullptr;
    if (fixes && fixes->is_array()) {
      bool first = true;
      for (const auto& fix : *fixes) {
        if (!fix.is_object() || !fix.contains("edit")) continue;
        actions.push_back({{"title", fix.value("title", "Apply fix")},
                           {"kind", "quickfix"},
                           {"diagnostics", json::array({diagnostic})},
                           {"isPreferred", first},
                           {"edit", fix["edit"]}});
        first = false;
      }
    }
    const json* code = optional_field(diagnostic, "code");
    if (kind != DocumentKind::Source || !code || !code->is_string()) continue;
    std::string rule = code->get<std::string>();
    uint32_t line = unsigned_field(required_field(required_field(diagnostic, "range"), "start"), "line");
    if (!suppressed.insert({line, rule}).second) continue;
    auto edit = suppression_edit(text, "", line, rule);
    if (!edit) continue;
    // Line starts are column 0 in every encoding: no conversion needed.
    json range = {{"start", {{"line", edit->range.start.line}, {"character", 0}}},
                  {"end", {{"line", edit->range.end.line}, {"character", 0}}}};
    actions.push_back(
        {{"title", "Suppress " + rule + " on this line"},
         {"kind", "quickfix"},
         {"diagnostics", json::array({diagnostic})},
         {"edit", {{"changes", {{uri, json::array({{{"range", range}, {"newText", edit->new_text}}})}}}}}});
  }
  return actions;
}

}  // namespace kl::lsp
