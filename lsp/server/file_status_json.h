#pragma once
// The `kernel-lsp/fileStatus` request: what an editor's status bar shows for the file in front of
// the user — the compute capabilities kernel-lsp checks it against and where that list comes
// from (the same selection the analysis used: build.toml's kernel section, the defaultArchs
// setting, or kernel-builder's defaults for the toolkit's CUDA version), the project, and
// whether the project's last build is stale (a file it read has changed since).
//
// Capabilities come from the document's current analysis, so the answer waits for it (as a
// hover does); a file that is not an open kernel source gets `capabilities: null` at once.
// Threading: called on the I/O thread; may answer from a worker thread.
#include "lsp/core/kernel_server.h"
#include "lsp/protocol/dispatcher.h"
#include "lsp/server/build_controller.h"

namespace kl::lsp {

inline constexpr const char* kFileStatusMethod = "kernel-lsp/fileStatus";

// params {textDocument: {uri}}. Result:
// {uri, project (folder URI) | null, buildToml (URI) | null,
//  capabilities: ["8.0", "9.0a"] | null, capabilitiesFrom: "build.toml [kernel.x] ...",
//  lastBuild: {finishedAt, ok, cancelled, failedCompiles, changedSince: [URI...]} | null}
void file_status_request(const json& params, const Reply& reply, KernelServer& kernel,
                         const BuildController& builds);

}  // namespace kl::lsp
