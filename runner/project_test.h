#pragma once
// A project's tests, run plainly or once under each compute-sanitizer tool asked for, and what
// the tools reported as findings at source lines (sanitizer_messages.h). The CLI's `kernel-lsp
// test` and the server's kernel-lsp/test request call it.
//
// Threading: blocks until every run ends; `cancel`/`should_stop` end the running one and
// everything it started. Callbacks run on the calling thread.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "runner/test_counts.h"
#include "support/cancellation.h"
#include "support/result.h"

namespace kl::runner {

struct TestRequest {
  std::filesystem::path project;
  std::string command;               // run with /bin/sh -c in the project; empty: pytest over tests/
  std::vector<std::string> tools;    // memcheck, racecheck, synccheck, initcheck; empty: run plainly
  std::filesystem::path cuda_path;   // where to look for bin/compute-sanitizer first
  int timeout_seconds = 1800;        // per run
  // A compute-sanitizer run made elsewhere (one tool): its output is read instead of running.
  std::filesystem::path from_output;
  const CancellationToken* cancel = nullptr;
  std::function<bool()> should_stop;
  std::function<void(std::string_view)> on_output;                          // the tests' output
  std::function<void(const std::string& stage, int percent)> on_progress;   // one stage per run
};

struct TestRun {
  std::string tool;        // empty for the plain run
  int exit_code = 0;
  bool timed_out = false;
  size_t reports = 0;      // what the tool printed
  size_t unplaced = 0;     // of those, the ones with no source line (no -lineinfo)
  size_t findings = 0;     // the distinct findings they made (a kernel reports once per thread)
  std::optional<TestCounts> tests;  // pytest's summary of the run; none for another runner
};

struct TestOutcome {
  std::string command;
  std::vector<TestRun> runs;
  std::vector<analyzers::Finding> findings;  // compute-sanitizer findings, files resolved on disk
  bool tests_failed = false;                 // some run exited with an error
  bool cancelled = false;
  // Operators whose every call in the tests had sizes that never reach a partial block or vector
  // (test_shapes.h), from the first run's pytest; empty when nothing was recorded.
  std::vector<std::string> shape_notes;
};

// An Error when nothing could run: the project is not a folder, no command and no tests/ folder,
// an unknown tool, compute-sanitizer not found, an unreadable --from-output file.
Result<TestOutcome> run_project_tests(const TestRequest& request);

// The file under `project` a report names: absolute as printed, else relative to the project,
// else the one file under it whose path ends the same way (two such files: none).
std::filesystem::path resolve_reported_file(const std::filesystem::path& project, const std::string& printed);

}  // namespace kl::runner
