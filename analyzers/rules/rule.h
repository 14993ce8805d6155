#pragma once
// A rule is one module: `analyzers/rules/<id>.cpp` defines its `Rule` descriptor (id, default
// severity, one-line summary, guidance page) next to its check, and `rule_catalog.cpp` lists the
// descriptors. Everything else that needs to know about a rule (the pipeline in analysis.cpp,
// SARIF's rule list, help links, guidance in the editor) reads the descriptor through the
// catalog, never a copy of it.
//
// A rule reads one of two inputs (rule_input.h): the facts of one source file's parses
// (`source_check`) or one build.toml's reading (`build_toml_check`). A descriptor has at most one
// of them; one with neither (frontend) only names findings that the pipeline itself makes.
// Descriptors are constants, initialised before any code runs; the checks are pure functions of
// their input and may run on any thread.
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"

namespace kl::analyzers {

struct SourceInput;
struct BuildTomlInput;

using SourceCheck = void (*)(const SourceInput&, std::vector<Finding>&);
using BuildTomlCheck = void (*)(const BuildTomlInput&, std::vector<Finding>&);

struct Rule {
  std::string_view id;  // public and stable (SARIF, suppressions, settings, docs): never rename one
  Severity default_severity = Severity::Warning;  // what a finding of this rule is unless it says otherwise
  std::string_view summary;                       // one line, for SARIF's shortDescription
  std::string_view guidance_page;  // path under skills/cuda-kernels/, e.g. references/rules/arch-mismatch.md
  SourceCheck source_check = nullptr;
  BuildTomlCheck build_toml_check = nullptr;

  // A finding of this rule: its id and its default severity. (Its link to guidance_page is made
  // where it is shown: guidance/guidance_links.h.)
  Finding finding(Location location, std::string message) const;
};

}  // namespace kl::analyzers
