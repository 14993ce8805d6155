#pragma once
// Findings of the frontend pseudo-rule (rules/frontend.cpp, id kFrontend in rule_catalog.h):
// made by the pipeline, not by a check, and built from the descriptor like any rule's, so that
// their id, default severity and help link have one source.
#include <string>

#include "analyzers/finding.h"

namespace kl::analyzers {

// A frontend finding at the descriptor's default severity (information).
Finding frontend_finding(Location location, std::string message);
// The same with another severity, for what leaves whole parts of a file unanalysed.
Finding frontend_finding(Location location, std::string message, Severity severity);

}  // namespace kl::analyzers
