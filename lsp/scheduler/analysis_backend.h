#pragma once
// What the scheduler runs: the analyzers behind an interface, so that scheduler and server
// tests can substitute a scripted backend. AnalyzerBackend is the real one.
//
// Thread-safety: analyze() is called from several workers at once (the analyzers allow it);
// reconfigure() from the I/O thread, and it swaps in a new Analyzer without waiting for running
// analyses (they finish on the old one, which dies with its last user).
#include <filesystem>
#include <memory>
#include <mutex>

#include "analyzers/analysis.h"
#include "lsp/scheduler/analysis_job.h"
#include "support/cancellation.h"

namespace kl::lsp {

class AnalysisBackend {
 public:
  virtual ~AnalysisBackend() = default;
  virtual analyzers::FileAnalysis analyze(const AnalysisJob& job, const CancellationToken& cancel) = 0;
  virtual void forget(const std::filesystem::path& file) = 0;
  virtual void reconfigure(const analyzers::AnalysisSettings& settings) = 0;
};

class AnalyzerBackend final : public AnalysisBackend {
 public:
  explicit AnalyzerBackend(const analyzers::AnalysisSettings& settings);

  analyzers::FileAnalysis analyze(const AnalysisJob& job, const CancellationToken& cancel) override;
  void forget(const std::filesystem::path& file) override;
  void reconfigure(const analyzers::AnalysisSettings& settings) override;

 private:
  std::shared_ptr<analyzers::Analyzer> current() const;

  mutable std::mutex mutex_;
  std::shared_ptr<analyzers::Analyzer> analyzer_;
};

}  // namespace kl::lsp
