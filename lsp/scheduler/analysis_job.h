#pragma once
// The unit of work of the scheduler: one snapshot of one document (text, version, and the
// unsaved build.toml it should be read against), and what analysing it produced. Immutable
// once handed to the scheduler; shared between threads by shared_ptr.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "analyzers/pipeline/analysis.h"

namespace kl::lsp {

enum class JobKind {
  Source,     // a kernel source: the analysis backend (clang, in a worker process)
  BuildToml,  // a build.toml: the analysis backend
  Skill,      // a SKILL.md: checked in the server's process (skill_check.h), never by the backend
};

// The editor's copy of a build.toml, when it is open (possibly unsaved).
struct ProjectSnapshot {
  std::filesystem::path build_toml;
  std::shared_ptr<const std::string> text;
};

struct AnalysisJob {
  std::filesystem::path file;
  JobKind kind = JobKind::Source;
  int64_t version = 0;  // the editor's version, echoed in diagnostics
  std::shared_ptr<const std::string> text;
  std::optional<ProjectSnapshot> project;
  uint64_t generation = 0;  // set by the scheduler: newer input, larger number
};

struct AnalysisOutcome {
  AnalysisJob job;
  analyzers::FileAnalysis analysis;  // build.toml: findings and build_toml only; skill: findings only
  double milliseconds = 0;
  std::string failure;  // the analysis threw; empty when it ran
};

}  // namespace kl::lsp
