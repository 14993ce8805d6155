#pragma once
// What the scheduler runs: the analyzers behind an interface, so that scheduler and server
// tests can substitute a scripted backend. AnalyzerBackend is the real one: it analyses in
// worker processes (analyzers/isolation), so that a crash in one document's analysis is an
// error diagnostic on that document and the server keeps serving the others.
// KERNEL_LSP_NO_ISOLATION=1 analyses in the server's own process instead (debugging only: a
// crash then ends the server). A backend receives Source and BuildToml jobs only: the scheduler
// checks Skill jobs itself (skill_check.h).
//
// Thread-safety: analyze() is called from several workers at once; reconfigure() from the I/O
// thread, and it swaps in a new analyzer without waiting for running analyses (they finish on
// the old one, which dies with its last user).
#include <filesystem>
#include <memory>
#include <mutex>

#include "analyzers/pipeline/analysis.h"
#include "analyzers/isolation/isolated_analyzer.h"
#include "lsp/scheduler/analysis_job.h"
#include "support/cancellation.h"

namespace kl::lsp {

class AnalysisBackend {
 public:
  virtual ~AnalysisBackend() = default;
  // `partial` receives early results of a source (analysis.h: PartialAnalysisSink), on the
  // calling thread, before the final one is returned; a backend may never call it.
  virtual analyzers::FileAnalysis analyze(const AnalysisJob& job, const CancellationToken& cancel,
                                          const analyzers::PartialAnalysisSink& partial) = 0;
  virtual void forget(const std::filesystem::path& file) = 0;
  virtual void reconfigure(const analyzers::AnalysisSettings& settings) = 0;
};

// KERNEL_LSP_NO_ISOLATION set to anything but "" or "0": analyse in the server's own process.
bool isolation_disabled_by_environment();

class AnalyzerBackend final : public AnalysisBackend {
 public:
  AnalyzerBackend(const analyzers::AnalysisSettings& settings, const analyzers::IsolationOptions& isolation);

  analyzers::FileAnalysis analyze(const AnalysisJob& job, const CancellationToken& cancel,
                                  const analyzers::PartialAnalysisSink& partial) override;
  void forget(const std::filesystem::path& file) override;
  void reconfigure(const analyzers::AnalysisSettings& settings) override;

 private:
  // One of the two, by the mode chosen at start.
  struct Analyzers {
    std::shared_ptr<analyzers::IsolatedAnalyzer> isolated;
    std::shared_ptr<analyzers::Analyzer> in_process;
  };
  Analyzers make(const analyzers::AnalysisSettings& settings) const;
  Analyzers current() const;

  analyzers::IsolationOptions isolation_;
  bool in_process_ = false;
  mutable std::mutex mutex_;
  Analyzers analyzers_;
};

}  // namespace kl::lsp
