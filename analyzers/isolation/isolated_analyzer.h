#pragma once
// The analyzers behind a process boundary. Same questions as Analyzer (a source file with its
// text, a build.toml), answered by a pool of worker processes (analysis_worker.h), so that a
// fault in one file's analysis — a segfault, an abort, stack exhaustion, heap corruption, an
// uncaught exception, a hang — costs that file's result and one worker, never the process
// that asked and never another file's result. The failed file gets one `frontend` error
// finding that says what happened ("analysis of this file failed: SIGSEGV in the access model;
// please report it"), and the same input is not analysed again (a server would otherwise
// re-run it on every trigger and crash in a loop).
//
// Used by `kernel-lsp lint` and by the language server. Thread-safety: any number of threads
// may call at once; each call holds one worker for its duration (at most `workers` at a time,
// the rest wait). A file goes back to the worker that analysed it last when that one is free,
// so the server's re-analyses find their parse caches warm.
//
// Cost: a process start (~50 ms, clang's libraries mapped) per worker, once; per analysis, a
// copy of the text and of the findings over a local socket (well under a millisecond).
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "analyzers/pipeline/analysis.h"
#include "analyzers/isolation/analysis_wire.h"
#include "support/cancellation.h"

namespace kl::analyzers {

struct IsolationOptions {
  std::filesystem::path worker_executable;                     // empty: default_worker_executable()
  unsigned workers = 0;                                        // 0: one per hardware thread
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};  // per file
  bool start_eagerly = false;  // start every worker now (the server), not on first use
  // How long a cancelled analysis may take to notice before its worker is killed instead
  // (analyses poll between stages; a parse of a large file takes a few seconds).
  std::chrono::milliseconds cancel_grace{std::chrono::seconds(5)};
};

class IsolatedAnalyzer {
 public:
  IsolatedAnalyzer(AnalysisSettings settings, IsolationOptions options);
  ~IsolatedAnalyzer();
  IsolatedAnalyzer(const IsolatedAnalyzer&) = delete;
  IsolatedAnalyzer& operator=(const IsolatedAnalyzer&) = delete;

  // As Analyzer::analyze_source; `project` is the editor's unsaved build.toml, if any. Early
  // results reach `partial` on the calling thread while it waits for the final one.
  FileAnalysis analyze_source(const std::filesystem::path& file, std::string_view text,
                              const CancellationToken* cancel = nullptr,
                              const ProjectText* project = nullptr,
                              const PartialAnalysisSink& partial = {});
  // As Analyzer::analyze_build_toml, in a FileAnalysis so that a failure can say so.
  FileAnalysis analyze_build_toml(const std::filesystem::path& file, std::string_view text);

  void forget(const std::filesystem::path& file);
  void forget_all();

  const AnalysisSettings& settings() const;
  const IsolationOptions& options() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Starts `count` worker processes now, before any settings are known, for the first
// IsolatedAnalyzer of this process to adopt: the server calls it at start-up, so that loading
// clang's libraries (~100 ms a process) overlaps the client's `initialize`. An IsolatedAnalyzer
// that starts eagerly adopts what it needs and ends the rest.
void prestart_analysis_workers(unsigned count, const std::filesystem::path& executable = {});

}  // namespace kl::analyzers
