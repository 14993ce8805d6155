#pragma once
// A scripted AnalysisBackend for scheduler and server tests: every line of a source that
// contains "BUG" yields one finding (rule "fake-rule") on that word; a build.toml yields one
// "build-toml" finding per line containing "bakend". It records every job it ran, can be made
// slow, and honours cancellation, so tests can watch the scheduler skip, cancel and drop work.
// A source containing "EARLY" first hands `partial` the findings of the lines before the first
// "EARLY" line, then waits the delay, as a file parsed in several configurations does.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lsp/scheduler/analysis_backend.h"

namespace kl::lsp::testing {

class FakeBackend final : public AnalysisBackend {
 public:
  std::atomic<int> delay_ms{0};
  std::atomic<int> reconfigured{0};
  std::atomic<int> running{0};
  std::atomic<int> max_running{0};  // the most analyses seen at once

  analyzers::FileAnalysis analyze(const AnalysisJob& job, const CancellationToken& cancel,
                                  const analyzers::PartialAnalysisSink& partial) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(job);
    }
    int now_running = ++running;
    for (int seen = max_running.load();
         now_running > seen && !max_running.compare_exchange_weak(seen, now_running);) {
    }
    struct Leave {
      std::atomic<int>& counter;
      ~Leave() { --counter; }
    } leave{running};
    if (job.kind == JobKind::Source && partial) {
      size_t early_end = job.text->find("EARLY");
      if (early_end != std::string::npos) {
        AnalysisJob head = job;
        head.text = std::make_shared<const std::string>(job.text->substr(0, job.text->rfind('\n', early_end) + 1));
        analyzers::FileAnalysis early = scan(head);
        early.partial = true;
        partial(early);
      }
    }
    const int delay = delay_ms.load();  // fixed at the start, so only cancellation cuts it short
    for (int waited = 0; waited < delay; waited += 2) {
      if (cancel.is_cancelled()) {
        analyzers::FileAnalysis cancelled;
        cancelled.cancelled = true;
        return cancelled;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return scan(job);
  }
  void forget(const std::filesystem::path&) override {}
  void reconfigure(const analyzers::AnalysisSettings&) override { ++reconfigured; }

  std::vector<AnalysisJob> jobs() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return jobs_;
  }
  size_t job_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return jobs_.size();
  }

  // The findings of `job`'s text: one per line with the marker.
  static analyzers::FileAnalysis scan(const AnalysisJob& job) {
    analyzers::FileAnalysis result;
    const std::string marker = job.kind == JobKind::BuildToml ? "bakend" : "BUG";
    const std::string rule = job.kind == JobKind::BuildToml ? "build-toml" : "fake-rule";
    const std::string& text = *job.text;
    uint32_t line = 0;
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      size_t at = text.substr(start, end - start).find(marker);
      if (at != std::string::npos) {
        analyzers::Finding finding;
        finding.rule_id = rule;
        finding.severity = analyzers::Severity::Warning;
        finding.location.file = job.file.string();
        finding.location.range = {{line, static_cast<uint32_t>(at)},
                                  {line, static_cast<uint32_t>(at + marker.size())}};
        finding.message = "found " + marker;
        result.findings.push_back(finding);
      }
      if (end == text.size()) break;
      start = end + 1;
      ++line;
    }
    if (job.kind == JobKind::BuildToml) result.build_toml = job.file;
    return result;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<AnalysisJob> jobs_;
};

}  // namespace kl::lsp::testing
