#include "lsp/scheduler/skill_check.h"

#include "guidance/skill_validation.h"

namespace kl::lsp {

analyzers::FileAnalysis check_skill(const AnalysisJob& job) {
  analyzers::FileAnalysis result;
  result.findings = guidance::validate_skill_text(*job.text, job.file);
  return result;
}

}  // namespace kl::lsp
