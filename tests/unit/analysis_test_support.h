#pragma once
// What the tests that go through the analyzers' front door (Analyzer::analyze_source on small
// in-memory sources) share: settings for a list of capabilities, a scratch folder for the
// sources' names, the findings of one rule, substring tests on messages.
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include "analyzers/pipeline/analysis.h"

namespace kl::analyzers::testing {

// Settings that analyse for exactly `archs` ("8.0", "9.0a"), ignoring any compile_commands.json
// above the scratch folder.
inline AnalysisSettings settings_for_archs(std::initializer_list<const char*> archs) {
  AnalysisSettings settings;
  for (const char* arch : archs) settings.arch_override.push_back(*parse_capability(arch));
  settings.use_compile_commands = false;
  return settings;
}

// `name` in a folder of the temporary directory that belongs to one test file.
inline std::filesystem::path scratch_file(const std::string& folder, const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / folder;
  std::filesystem::create_directories(dir);
  return dir / name;
}

inline std::vector<const Finding*> findings_of_rule(const FileAnalysis& analysis, const std::string& rule) {
  std::vector<const Finding*> out;
  for (const auto& f : analysis.findings)
    if (f.rule_id == rule) out.push_back(&f);
  return out;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace kl::analyzers::testing
