#pragma once
// The `kernel-lsp/guidance` request and the `kernel-lsp.guidance` command (workspace/
// executeCommand), which agents and the VS Code client use to read the cuda-kernels skill's
// section for a rule, a construct, a topic or the construct at a position. JSON in and out; the
// lookups are guidance::SkillGuidance's and features/guidance_at.h's. I/O thread; reads one
// snapshot of the guidance and of the text, never waits for an analysis.
#include "lsp/core/kernel_server.h"
#include "lsp/protocol/json_rpc.h"
#include "lsp/server/position_encoding.h"

namespace kl::lsp {

inline constexpr const char* kGuidanceMethod = "kernel-lsp/guidance";
inline constexpr const char* kGuidanceCommand = "kernel-lsp.guidance";

// params {topic?, ruleId?, construct?, uri?, position?}: ruleId, then construct, then topic;
// when none of them answers, the construct at uri + position (an LSP Position in the negotiated
// encoding). Result: {title, markdown, file (absolute path), uri, line (0-based), skill} or null.
json guidance_request(const json& params, KernelServer& kernel, PositionEncoding encoding);
// workspace/executeCommand {command: "kernel-lsp.guidance", arguments: [<the same object>]}: the
// command's `arguments`.
json guidance_command(const json& arguments, KernelServer& kernel, PositionEncoding encoding);

}  // namespace kl::lsp
