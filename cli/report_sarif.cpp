#include <nlohmann/json.hpp>
#include <set>

#include "analyzers/rules/rule_catalog.h"
#include "cli/report.h"

namespace kl::cli {
namespace {

const char* sarif_level(analyzers::Severity s) {
  switch (s) {
    case analyzers::Severity::Error: return "error";
    case analyzers::Severity::Warning: return "warning";
    default: return "note";
  }
}

nlohmann::json physical_location(const analyzers::Location& location) {
  return {{"artifactLocation", {{"uri", display_path(location.file)}}},
          {"region", {{"startLine", location.range.start.line + 1},
                      {"startColumn", location.range.start.column + 1},
                      {"endLine", location.range.end.line + 1},
                      {"endColumn", location.range.end.column + 1}}}};
}

}  // namespace

void write_sarif_report(const LintReport& report, std::ostream& out, const guidance::GuidanceLinks& links) {
  nlohmann::json rules = nlohmann::json::array();
  for (const analyzers::Rule* rule : analyzers::rule_catalog()) {
    nlohmann::json descriptor = {{"id", std::string(rule->id)},
                                 {"shortDescription", {{"text", std::string(rule->summary)}}},
                                 {"defaultConfiguration", {{"level", sarif_level(rule->default_severity)}}}};
    if (std::string link = links.help_uri_for(rule->id); !link.empty())
      descriptor["helpUri"] = std::move(link);
    rules.push_back(std::move(descriptor));
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& file : report.files) {
    for (const auto& f : file.findings) {
      nlohmann::json result = {{"ruleId", f.rule_id},
                               {"level", sarif_level(f.severity)},
                               {"message", {{"text", f.message}}},
                               {"locations", {{{"physicalLocation", physical_location(f.location)}}}}};
      if (!f.notes.empty()) {
        nlohmann::json related = nlohmann::json::array();
        int id = 0;
        for (const auto& note : f.notes)
          related.push_back({{"id", id++}, {"message", {{"text", note.message}}},
                             {"physicalLocation", physical_location(note.location)}});
        result["relatedLocations"] = related;
      }
      if (!f.fixes.empty()) {
        nlohmann::json fixes = nlohmann::json::array();
        for (const auto& fix : f.fixes) {
          std::map<std::string, nlohmann::json> by_file;
          for (const auto& e : fix.edits) {
            auto& changes = by_file[e.file];
            if (changes.is_null()) changes = nlohmann::json::array();
            changes.push_back({{"deletedRegion", {{"startLine", e.range.start.line + 1},
                                                  {"startColumn", e.range.start.column + 1},
                                                  {"endLine", e.range.end.line + 1},
                                                  {"endColumn", e.range.end.column + 1}}},
                               {"insertedContent", {{"text", e.new_text}}}});
          }
          nlohmann::json changes = nlohmann::json::array();
          for (auto& [path, replacements] : by_file)
            changes.push_back({{"artifactLocation", {{"uri", display_path(path)}}}, {"replacements", replacements}});
          fixes.push_back({{"description", {{"text", fix.title}}}, {"artifactChanges", changes}});
        }
        result["fixes"] = fixes;
      }
      results.push_back(result);
    }
  }
  nlohmann::json doc = {
      {"version", "2.1.0"},
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"runs", {{{"tool", {{"driver", {{"name", "kernel-lsp"},
                                       {"version", KERNEL_LSP_VERSION},
                                       {"rules", rules}}}}},
                 {"results", results}}}}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace kl::cli
