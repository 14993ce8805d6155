#pragma once
// What a kernel benchmark measured, read from the JSON that kernels/common/bench_util.py's
// Recorder writes:
//
//   {"copy_gbs": 4263.7, "machine": {...}?,
//    "rows": [{"op": "rmsnorm qwen3 hidden", "shape": "1x4096", "impl": "ours", "us": 5.06,
//              "gbs": 4.86, "pct_copy": 0.11, "us_median"?: ..., "rounds_us"?: [...],
//              "error"?: "RuntimeError: ..."}, ...]}
//
// One row per (op, shape, implementation) there becomes one BenchRow per (op, shape) here, in
// the order the benchmark measured them. "ours" is the project's kernel; every impl not starting
// with "ours" is a peer (eager, compile, liger, ...); "ours_*" rows are benchmark-only launch
// variants of our own kernel and are left out. A time is the median of the alternating
// re-timings (us_median) where the benchmark made them for a close call, else the single timing
// (us). Pure data and pure functions: no files, no processes.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace kl::runner {

struct PeerTiming {
  std::string impl;    // "eager_F", "compile", "liger", ...
  double us = 0;       // its time (median where re-timed)
  double speedup = 0;  // peer us / ours us: above 1 means ours is faster; 0 when ours has no time
};

struct BenchRow {
  std::string op, shape;
  std::optional<double> ours_us;  // absent when ours failed or was not measured
  int ours_rounds = 1;            // timings behind ours_us (5 for a re-timed close call)
  // Minimum bytes moved / ours' time, and that as a percentage of the measured copy bandwidth;
  // rescaled to the median where ours was re-timed.
  std::optional<double> gbs, pct_copy;
  std::vector<PeerTiming> peers;              // peers with a time, in the order they were measured
  std::optional<std::string> best_peer;       // the fastest of `peers`; absent when none has a time
  std::map<std::string, std::string> errors;  // impl -> what it raised (ours and peers alike)

  const PeerTiming* peer(std::string_view impl) const;
  // Speedup against the best peer; absent without ours' time or a peer's.
  std::optional<double> speedup_vs_best() const;
};

struct BenchResults {
  double copy_gbs = 0;  // device copy bandwidth (read + write) of the run; 0 when not recorded
  std::vector<BenchRow> rows;
  nlohmann::json machine = nlohmann::json::object();  // GPU, torch, CUDA, ...; {} when unknown
  std::string date_utc;  // when it ran, as the benchmark recorded it ("date_utc"); "" when not

  std::vector<std::string> ops() const;  // distinct ops, in the order of `rows`
  // Peers measured for `op` (every peer when empty), in first-measured order.
  std::vector<std::string> peers(std::string_view op = {}) const;
};

// Reads a benchmark's JSON text. An Error says what was wrong and where (`rows[12] (op, shape,
// impl): "us" is not a number`) for text that is not JSON, is not an object, or has bad rows.
Result<BenchResults> parse_bench_results(std::string_view json_text);
Result<BenchResults> bench_results_from_json(const nlohmann::json& document);

// The structured answer the language server returns to agents (and `--json` consumers):
//
//   {"copy_gbs": 4263.7,              // GB/s, read + write; null when not recorded
//    "machine": {...},                // as the benchmark or the probe recorded it; {} if unknown
//    "date_utc": "2026-11-30T03:57:44+00:00",   // null when not recorded
//    "peers": ["eager_hf", "eager_F", "compile", "liger"],
//    "rows": [{"op": "rmsnorm qwen3 hidden", "shape": "1x4096",
//              "time_us": 5.06,       // ours; null when ours failed
//              "rounds": 1,           // timings behind time_us (median of 5 for close calls)
//              "gbs": 4.86, "pct_copy": 0.11,           // null without ours' time
//              "peers_us": {"eager_F": 10.9, ...},      // peers that have a time
//              "speedup": {"eager_F": 2.16, ...},       // peer_us / time_us; > 1: ours faster
//              "best_peer": "eager_F",                  // null when no peer has a time
//              "speedup_vs_best": 2.16,                 // null without both times
//              "errors": {"liger": "RuntimeError: ..."}}]}   // {} when nothing failed
nlohmann::json to_json(const BenchResults& results);

// Per row of `current`: the change of ours' time against the same (op, shape) in `previous`,
// in percent (negative: faster now); absent where either run has no time for it.
std::vector<std::optional<double>> ours_time_change_pct(const BenchResults& current,
                                                        const BenchResults& previous);

}  // namespace kl::runner
