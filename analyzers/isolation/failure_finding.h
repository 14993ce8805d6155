#pragma once
// The finding that stands for an analysis that did not finish: a `frontend` error at the top of
// the file, in every output format and in the editor.
#include <string>

#include "analyzers/finding.h"

namespace kl::analyzers {

// "analysis of this file failed: <what>; please report it ..." — `what` is e.g.
// "SIGSEGV in the access model", "it ran past the 300 s limit", "internal error: <message>".
Finding analysis_failure_finding(const std::string& file, const std::string& what);

// True for a finding made by analysis_failure_finding (the CLI's exit code, the server's logs).
bool is_analysis_failure(const Finding& finding);

}  // namespace kl::analyzers
