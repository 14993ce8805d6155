#include "lsp/server/diagnostics_json.h"

#include "lsp/server/uri.h"

namespace kl::lsp {
namespace {

std::filesystem::path file_or(const std::string& file, const std::filesystem::path& fallback) {
  return file.empty() ? fallback : std::filesystem::path(file).lexically_normal();
}

}  // namespace

int lsp_severity(analyzers::Severity severity) {
  switch (severity) {
    case analyzers::Severity::Error:
      return 1;
    case analyzers::Severity::Warning:
      return 2;
    case analyzers::Severity::Information:
      return 3;
    case analyzers::Severity::Hint:
      return 4;
  }
  return 2;
}

json to_workspace_edit(const std::vector<analyzers::TextEdit>& edits, const std::filesystem::path& document,
                       ConverterCache& converters) {
  json changes = json::object();
  for (const auto& edit : edits) {
    std::filesystem::path file = file_or(edit.file, document);
    const PositionConverter* converter = converters.get(file);
    if (!converter) continue;
    changes[path_to_uri(file)].push_back(
        {{"range", converter->to_lsp(edit.range)}, {"newText", edit.new_text}});
  }
  return json{{"changes", std::move(changes)}};
}

json to_lsp_diagnostics(const std::vector<analyzers::Finding>& findings,
                        const std::filesystem::path& document, ConverterCache& converters,
                        const ClientCapabilities& client, const guidance::GuidanceLinks& links) {
  json out = json::array();
  const PositionConverter* here = converters.get(document);
  if (!here) return out;
  for (const auto& finding : findings) {
    json diagnostic = {{"range", here->to_lsp(finding.location.range)},
                       {"severity", lsp_severity(finding.severity)},
                       {"code", finding.rule_id},
                       {"source", kDiagnosticSource},
                       {"message", finding.message}};
    if (client.code_description)
      if (std::string href = links.help_uri_for(finding.rule_id); !href.empty())
        diagnostic["codeDescription"] = {{"href", std::move(href)}};
    if (!finding.notes.empty() && client.related_information) {
      json related = json::array();
      for (const auto& note : finding.notes) {
        std::filesystem::path file = file_or(note.location.file, document);
        const PositionConverter* there = converters.get(file);
        if (!there) continue;
        related.push_back(
            {{"location", {{"uri", path_to_uri(file)}, {"range", there->to_lsp(note.location.range)}}},
             {"message", note.message}});
      }
      if (!related.empty()) diagnostic["relatedInformation"] = std::move(related);
    }
    if (!finding.fixes.empty()) {
      json fixes = json::array();
      for (const auto& fix : finding.fixes)
        fixes.push_back({{"title", fix.title}, {"edit", to_workspace_edit(fix.edits, document, converters)}});
      diagnostic["data"] = {{"fixes", std::move(fixes)}};
    }
    out.push_back(std::move(diagnostic));
  }
  return out;
}

}  // namespace kl::lsp
