#pragma once
// What the scheduler runs for a JobKind::Skill job: the SKILL.md text checked against the Agent
// Skills format (guidance::validate_skill_text; rule "skill"), links resolved against the file's
// folder on disk. It runs in the server's process and not through the AnalysisBackend: it needs
// no clang and cannot crash the way a parse can, so it needs no worker process, and a backend
// substituted for the analyzers (tests' scripted one) leaves it unchanged. Ignores cancellation:
// it takes microseconds, and the scheduler drops an outdated result anyway. Thread-compatible.
#include "analyzers/pipeline/analysis.h"
#include "lsp/scheduler/analysis_job.h"

namespace kl::lsp {

// The findings of `job` (kind Skill), all located in job.file.
analyzers::FileAnalysis check_skill(const AnalysisJob& job);

}  // namespace kl::lsp
