#pragma once
// A build as JSON: what `kernel-lsp build --format json` prints and what the kernel-lsp/build
// request answers (docs/LSP.md documents the shape). Pure.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyzers/finding.h"
#include "runner/project_build.h"

namespace kl::runner {

// {project, ok, cancelled, startedAt, finishedAt, problems[], binding, units[], kernels[],
//  diagnostics[]}: one kernels[] entry per kernel and target with registers, shared memory,
// stack, spills and the occupancy they allow at the best block size (the block size is the
// launcher's; the editor's lenses use the one the code shows).
nlohmann::json build_report_json(const BuildReport& report, const std::vector<analyzers::Finding>& messages);

}  // namespace kl::runner
