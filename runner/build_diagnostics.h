#pragma once
// A build's nvcc and ptxas messages as findings at the files and lines they name, one per
// distinct message with the capabilities it came from (runner/compiler_messages.h), for the
// editor's diagnostics and the CLI's report.
#include <vector>

#include "analyzers/finding.h"
#include "runner/compiler_messages.h"
#include "runner/project_build.h"

namespace kl::runner {

// KernelLocator (compiler_messages.h): where a kernel named by its mangled name is declared, for
// ptxas messages that name only the kernel ("Entry function '_Z...' uses too much shared data").
std::vector<analyzers::Finding> build_diagnostics(const BuildReport& report,
                                                  const KernelLocator& locate_kernel);

}  // namespace kl::runner
