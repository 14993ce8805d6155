#pragma once
// The clang invocation for a device-side command line (device_parse_command), as every clang
// run of the frontend starts it: the parse, the configuration check and the toolkit PCH build.
// Each then sets what its own action needs (skipped bodies, an output file, a PCH to load).
#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
}

namespace kl::analyzers {

// Null when clang cannot make one. Diagnostics from building it (unknown flags) go to a
// throwaway engine that lives only as long as this call: the invocation keeps none of it. The
// invocation frees its AST on exit (DisableFree off: many parses per process) and prints
// diagnostics without colours or carets (without carets clang also skips its "N errors
// generated" line on stderr).
std::shared_ptr<clang::CompilerInvocation> device_invocation(const std::vector<std::string>& argv);

}  // namespace kl::analyzers
