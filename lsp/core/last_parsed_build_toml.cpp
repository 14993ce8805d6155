#include "lsp/core/last_parsed_build_toml.h"

#include "analyzers/project/build_config.h"

namespace kl::lsp {
namespace {

// Why a text does not parse, as "line N: message" (its first error); empty when it parses.
std::string parse_problem(const std::filesystem::path& build_toml, const std::string& text) {
  analyzers::BuildConfigParse parse = analyzers::parse_build_toml(build_toml, text);
  if (parse.config) return {};
  const analyzers::Finding* first = nullptr;
  for (const auto& problem : parse.problems)
    if (!first ||
        (problem.severity == analyzers::Severity::Error && first->severity != analyzers::Severity::Error))
      first = &problem;
  if (!first) return "it could not be read as a build.toml";
  return "line " + std::to_string(first->location.range.start.line + 1) + ": " + first->message;
}

}  // namespace

LastParsedBuildTomls::Choice LastParsedBuildTomls::choose(const std::filesystem::path& build_toml,
                                                          std::shared_ptr<const std::string> current) {
  if (!current) return {};
  const std::filesystem::path key = build_toml.lexically_normal();
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& entry = entries_[key];
  if (!entry.seen || *entry.seen != *current) {
    entry.problem = parse_problem(key, *current);
    if (entry.problem.empty()) entry.parsed = current;
  }
  entry.seen = current;
  if (entry.problem.empty()) {
    entry.parsed = current;  // the same text under the newest pointer: analyses made with it are current
    return {current, false};
  }
  if (entry.parsed) return {entry.parsed, true};
  return {current, false};
}

std::optional<std::string> LastParsedBuildTomls::note_for(const std::filesystem::path& build_toml,
                                                          const std::string* text) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(build_toml.lexically_normal());
  if (it == entries_.end() || it->second.problem.empty() || !it->second.parsed) return std::nullopt;
  if (it->second.parsed.get() != text) return std::nullopt;
  return "build.toml does not parse (" + it->second.problem + "); using the last version that parsed";
}

analyzers::FileAnalysis with_build_toml_note(analyzers::FileAnalysis analysis,
                                             const std::filesystem::path& file, const std::string& note) {
  analysis.archs.origin = note;
  analysis.archs.origin_location.reset();
  analyzers::Finding finding;
  finding.rule_id = "build-toml";
  finding.severity = analyzers::Severity::Information;
  finding.location = analyzers::Location{file.string(), analyzers::Range{}};
  finding.message = note + ".";
  analysis.findings.insert(analysis.findings.begin(), std::move(finding));
  return analysis;
}

}  // namespace kl::lsp
