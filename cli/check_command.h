#pragma once
// `kernel-lsp check FILE`: runs the whole pipeline on one file and prints what each stage found
// and how long it took (toolkit, build.toml, archs, flags, each parse, rules), like
// `clangd --check`. For whoever debugs the server or a surprising finding.
#include <iosfwd>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "cli/registered_command.h"

namespace kl::cli {

int run_check(const std::string& file, const analyzers::AnalysisSettings& settings, std::ostream& out,
              std::ostream& err);

// Adds `check FILE` and the analysis options to `app`; its run calls run_check on stdout and
// stderr (exit 2 on a bad --arch).
RegisteredCommand add_check_command(CLI::App& app);

}  // namespace kl::cli
