#include "lsp/scheduler/analysis_backend.h"

#include "analyzers/project/build_config.h"

namespace kl::lsp {

AnalyzerBackend::AnalyzerBackend(const analyzers::AnalysisSettings& settings)
    : analyzer_(std::make_shared<analyzers::Analyzer>(settings)) {
  analyzer_->find_toolkit_in_background();
}

std::shared_ptr<analyzers::Analyzer> AnalyzerBackend::current() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return analyzer_;
}

analyzers::FileAnalysis AnalyzerBackend::analyze(const AnalysisJob& job, const CancellationToken& cancel) {
  std::shared_ptr<analyzers::Analyzer> analyzer = current();
  if (job.kind == JobKind::BuildToml) {
    analyzers::FileAnalysis result;
    result.findings = analyzer->analyze_build_toml(job.file, *job.text);
    result.build_toml = job.file;
    return result;
  }
  if (job.project) {
    // The editor's unsaved build.toml wins over the file on disk.
    analyzers::BuildConfigParse project =
        analyzers::parse_build_toml(job.project->build_toml, *job.project->text);
    return analyzer->analyze_source(job.file, *job.text, &cancel, &project);
  }
  return analyzer->analyze_source(job.file, *job.text, &cancel, nullptr);
}

void AnalyzerBackend::forget(const std::filesystem::path& file) { current()->forget(file); }

void AnalyzerBackend::reconfigure(const analyzers::AnalysisSettings& settings) {
  auto fresh = std::make_shared<analyzers::Analyzer>(settings);
  fresh->find_toolkit_in_background();
  std::lock_guard<std::mutex> lock(mutex_);
  analyzer_ = std::move(fresh);
}

}  // namespace kl::lsp
