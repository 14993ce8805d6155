#pragma once
// The report folder of a kernel project's benchmark runs (default <project>/benchmarks/reports/):
//
//   report.md            title, machine, date, copy bandwidth, a summary per op, and per op a table
//                        shape | ours µs | GB/s | % of copy | speedup vs each peer | change
//   speedup.svg          speedup against the best peer and % of copy per shape, one panel per op
//                        (drawn by runner/scripts/plot_bench.py with matplotlib; left out, and the
//                        report says why and how to get it, when no Python has matplotlib)
//   results.json         to_json(results): the structured form of the latest run
//   history/<UTC>.json   every run's raw results as the benchmark wrote them, named by when the
//                        report was written (20261202T101530Z.json; -2, -3... for the same second)
//
// "change" is ours' time against the newest earlier history entry, in percent.
//
// Nothing is ever half-written: the new folder is assembled in a temporary sibling (a copy of the
// old folder, so history and anything else there stays) and swapped into place only when complete;
// on any failure the temporary folder is removed and the old folder is as it was.
//
// Cost: copies the old folder (history grows by one results file, ~100 KB, per run) and runs one
// Python process per candidate interpreter for the plot (seconds). Not for concurrent use on the
// same folder: the last of two writers wins and the other's history entry is lost.
#include <filesystem>
#include <string>
#include <vector>

#include "runner/bench_results.h"
#include "support/result.h"

namespace kl::runner {

struct ReportRequest {
  std::filesystem::path report_dir;  // the folder to (re)write
  std::string title;                 // the project's name
  std::string where;                 // how it ran, for people: "locally", "through `ssh gpu sh`"
  std::string raw_results;           // the benchmark's JSON text, stored as-is in history/
  // Interpreters to try for the plot, in order: the first that can import matplotlib draws it.
  std::vector<std::string> pythons = {"python3", "/usr/bin/python3"};
};

// Writes the folder; returns the path of its report.md. An Error (and the old folder untouched)
// when a file cannot be written or the folder cannot be moved into place. A plot that cannot be
// drawn is no error: report.md says what happened.
Result<std::filesystem::path> write_report(const BenchResults& results, const ReportRequest& request);

// "apt install python3-matplotlib": what the report tells people without matplotlib.
inline constexpr const char* kMatplotlibInstallHint = "apt install python3-matplotlib";

}  // namespace kl::runner
