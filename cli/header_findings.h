#pragma once
// A finding located in a header that several linted files include is one problem, not one per
// includer: it is reported once, with the first file (in the order of the targets) that found
// it, and dropped from the others' results (the header's own analysis included); the call sites
// the others reached it from are added to its notes.
#include <vector>

#include "cli/report.h"

namespace kl::cli {

// Removes each finding that an earlier result already reported at the same place with the same
// rule and message (the message's closing "(in <kernels>)" aside), moving its notes to the one
// kept. Returns how many went.
size_t report_shared_findings_once(std::vector<FileResult>& results);

}  // namespace kl::cli
