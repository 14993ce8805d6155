#pragma once
// The `initialize` result: what kernel-lsp offers, shaped by what the client can take. Pure.
#include <string>
#include <vector>

#include "lsp/protocol/json_rpc.h"
#include "lsp/server/client_capabilities.h"

namespace kl::lsp {

// `commands`: the workspace/executeCommand commands the server answers.
json initialize_result(const ClientCapabilities& client, bool pull_diagnostics,
                       const std::string& server_version, const std::vector<std::string>& commands);

}  // namespace kl::lsp
