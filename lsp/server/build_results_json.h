#pragma once
// The structured answers of kernel-lsp/build and kernel-lsp/bench (and of the matching
// workspace/executeCommand commands), for agents and the VS Code client. docs/LSP.md documents
// the shapes. Pure.
#include "lsp/core/project_builds.h"
#include "lsp/protocol/json_rpc.h"
#include "runner/project_bench.h"

namespace kl::lsp {

// runner::build_report_json of the snapshot's build and messages.
json build_result_json(const BuildSnapshot& snapshot);

// {project, where, exitCode, report, reportUri, results} (results: runner::to_json's).
json bench_result_json(const std::filesystem::path& project, const runner::BenchOutcome& outcome);

}  // namespace kl::lsp
