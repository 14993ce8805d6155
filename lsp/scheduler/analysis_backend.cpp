#include "lsp/scheduler/analysis_backend.h"

#include <cstdlib>
#include <cstring>

#include "analyzers/project/build_config.h"

namespace kl::lsp {

bool isolation_disabled_by_environment() {
  const char* no_isolation = std::getenv("KERNEL_LSP_NO_ISOLATION");
  return no_isolation && *no_isolation && std::strcmp(no_isolation, "0") != 0;
}

AnalyzerBackend::AnalyzerBackend(const analyzers::AnalysisSettings& settings,
                                 const analyzers::IsolationOptions& isolation)
    : isolation_(isolation) {
  in_process_ = isolation_disabled_by_environment();
  analyzers_ = make(settings);
}

AnalyzerBackend::Analyzers AnalyzerBackend::make(const analyzers::AnalysisSettings& settings) const {
  Analyzers made;
  if (in_process_) {
    made.in_process = std::make_shared<analyzers::Analyzer>(settings);
    made.in_process->find_toolkit_and_libraries_in_background();  // one process, one lookup
  } else {
    made.isolated = std::make_shared<analyzers::IsolatedAnalyzer>(settings, isolation_);
  }
  return made;
}

AnalyzerBackend::Analyzers AnalyzerBackend::current() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return analyzers_;
}

analyzers::FileAnalysis AnalyzerBackend::analyze(const AnalysisJob& job, const CancellationToken& cancel,
                                                 const analyzers::PartialAnalysisSink& partial) {
  Analyzers analyzers = current();
  if (analyzers.isolated) {
    if (job.kind == JobKind::BuildToml) return analyzers.isolated->analyze_build_toml(job.file, *job.text);
    if (job.project) {
      analyzers::ProjectText project{job.project->build_toml, *job.project->text};
      return analyzers.isolated->analyze_source(job.file, *job.text, &cancel, &project, partial);
    }
    return analyzers.isolated->analyze_source(job.file, *job.text, &cancel, nullptr, partial);
  }
  if (job.kind == JobKind::BuildToml) {
    analyzers::FileAnalysis result;
    result.findings = analyzers.in_process->analyze_build_toml(job.file, *job.text);
    result.build_toml = job.file;
    return result;
  }
  if (job.project) {
    // The editor's unsaved build.toml wins over the file on disk.
    analyzers::BuildConfigParse project = analyzers::parse_build_toml(job.project->build_toml, *job.project->text);
    return analyzers.in_process->analyze_source(job.file, *job.text, &cancel, &project, partial);
  }
  return analyzers.in_process->analyze_source(job.file, *job.text, &cancel, nullptr, partial);
}

void AnalyzerBackend::forget(const std::filesystem::path& file) {
  Analyzers analyzers = current();
  if (analyzers.isolated) analyzers.isolated->forget(file);
  else analyzers.in_process->forget(file);
}

void AnalyzerBackend::reconfigure(const analyzers::AnalysisSettings& settings) {
  Analyzers fresh = make(settings);
  std::lock_guard<std::mutex> lock(mutex_);
  analyzers_ = std::move(fresh);
}

}  // namespace kl::lsp
