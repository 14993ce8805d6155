#include "runner/bench_report.h"

#include <fcntl.h>
#include <stdio.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <regex>
#include <sstream>
#include <tuple>

#include "runner/utc_time.h"
#include "support/fs_paths.h"
#include "support/process.h"
#include "support/resources.h"

namespace kl::runner {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// ---- numbers and text for people ----------------------------------------------------------

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}
std::string format_us(double us) { return format(us < 10 ? "%.2f" : us < 1000 ? "%.1f" : "%.0f", us); }
std::string format_gbs(double gbs) { return format(gbs < 100 ? "%.1f" : "%.0f", gbs); }
std::string format_speedup(double x) { return format("%.2f×", x); }
std::string format_change(double pct) {
  if (std::fabs(pct) < 0.05) return "±0.0 %";
  return (pct > 0 ? "+" : "−") + format("%.1f %%", std::fabs(pct));
}
std::string cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string json_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// "NVIDIA H200 · 132 SMs · 139.8 GiB · torch 2.11.0+cu130 · CUDA 13.0 · ..." from what the run recorded.
std::string describe_machine(const json& machine) {
  if (!machine.is_object() || machine.empty()) return "not recorded";
  std::vector<std::string> parts;
  auto take = [&](const char* key, const std::string& prefix, const std::string& suffix) {
    if (auto it = machine.find(key); it != machine.end() && !it->is_null())
      parts.push_back(prefix + json_text(*it) + suffix);
  };
  take("gpu", "", "");
  take("capability", "capability ", "");
  take("sm_count", "", " SMs");
  take("memory_gib", "", " GiB");
  take("torch", "torch ", "");
  take("cuda", "CUDA ", "");
  take("triton", "triton ", "");
  take("python", "Python ", "");
  take("nvidia_smi", "nvidia-smi: ", "");
  static const std::vector<std::string> shown = {"gpu",  "capability", "sm_count", "memory_gib", "torch",
                                                 "cuda", "triton",     "python",   "nvidia_smi"};
  for (const auto& [key, value] : machine.items())
    if (std::find(shown.begin(), shown.end(), key) == shown.end())
      parts.push_back(key + " " + json_text(value));
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : " · ") + part;
  return out;
}

// ---- history/ -----------------------------------------------------------------------------

// A history entry's order: its timestamp, then its same-second sequence number (none = 1).
struct HistoryName {
  std::string stamp;
  int sequence = 1;
  fs::path path;
};

std::vector<HistoryName> history_entries(const fs::path& history) {
  static const std::regex name(R"((\d{8}T\d{6}Z)(?:-(\d+))?\.json)");
  std::vector<HistoryName> entries;
  std::error_code ec;
  for (fs::directory_iterator it(history, ec), end; !ec && it != end; it.increment(ec)) {
    std::smatch match;
    std::string file = it->path().filename().string();
    if (!std::regex_match(file, match, name)) continue;
    entries.push_back({match[1], match[2].matched ? std::stoi(match[2]) : 1, it->path()});
  }
  std::sort(entries.begin(), entries.end(), [](const HistoryName& a, const HistoryName& b) {
    return std::tie(a.stamp, a.sequence) < std::tie(b.stamp, b.sequence);
  });
  return entries;
}

// A name for this run's entry that sorts after every entry there (the clock may have gone back).
fs::path new_history_path(const fs::path& history, const std::vector<HistoryName>& entries) {
  HistoryName next{format_utc(std::chrono::system_clock::now(), "%Y%m%dT%H%M%SZ"), 1, {}};
  if (!entries.empty()) {
    const HistoryName& last = entries.back();
    if (last.stamp >= next.stamp) next = {last.stamp, last.sequence + 1, {}};
  }
  std::string file = next.stamp + (next.sequence > 1 ? "-" + std::to_string(next.sequence) : "") + ".json";
  return history / file;
}

// The run to compare against, read from the newest earlier entry; `note` says what went wrong.
struct PreviousRun {
  std::optional<BenchResults> results;
  std::string name;  // history/<file>
  std::string note;
};

PreviousRun read_previous(const std::vector<HistoryName>& entries) {
  PreviousRun previous;
  if (entries.empty()) return previous;
  previous.name = "history/" + entries.back().path.filename().string();
  auto text = read_file_text(entries.back().path);
  if (!text) {
    previous.note = "could not read " + previous.name;
    return previous;
  }
  auto parsed = parse_bench_results(*text);
  if (!parsed)
    previous.note = previous.name + " is not usable: " + parsed.error().describe();
  else
    previous.results = std::move(*parsed);
  return previous;
}

// ---- the plot -----------------------------------------------------------------------------

// Runs plot_bench.py with the first interpreter that has matplotlib; "" when the plot was drawn,
// else the sentence the report shows instead.
std::string draw_plot(const fs::path& data, const fs::path& svg, const ReportRequest& request) {
  auto script = find_resource(resources::kPlotBench);
  if (!script) return "Plot skipped: runner/scripts/plot_bench.py is not installed with kernel-lsp.";
  std::vector<std::string> tried;
  for (const auto& python : request.pythons) {
    if (find_on_path(python).empty() && !fs::exists(python)) continue;
    tried.push_back(python);
    ProcessRequest plot{python, {script->string(), data.string(), svg.string(), "--title", request.title}};
    plot.timeout = std::chrono::minutes(3);
    auto drawn = run_process(plot);
    if (!drawn) continue;
    if (drawn->exit_code == 0 && fs::exists(svg)) return "";
    if (drawn->exit_code == 3) continue;  // plot_bench.py: this interpreter has no matplotlib
    std::string tail =
        drawn->stderr_text.substr(drawn->stderr_text.size() > 600 ? drawn->stderr_text.size() - 600 : 0);
    return "Plot failed (" + python + " " + script->filename().string() + " exited with " +
           std::to_string(drawn->exit_code) + "): " + tail;
  }
  std::string names;
  for (const auto& t : tried) names += (names.empty() ? "" : ", ") + t;
  return "Plot skipped: no Python with matplotlib (tried " +
         (names.empty() ? std::string("none found") : names) + "). Install it with `" +
         kMatplotlibInstallHint +
         "` (or `pip install matplotlib`), then render this run again with `kernel-lsp bench DIR --from-json "
         "FILE` (FILE: its entry in history/).";
}

// ---- report.md ----------------------------------------------------------------------------

struct OpSummary {
  size_t shapes = 0, timed = 0, faster = 0;
  double log_speedup_sum = 0;
  std::optional<double> best_pct_copy;  // none when no shape recorded its bytes
};

OpSummary summarize(const BenchResults& results, const std::string& op) {
  OpSummary summary;
  for (const auto& row : results.rows) {
    if (row.op != op) continue;
    ++summary.shapes;
    if (row.pct_copy) summary.best_pct_copy = std::max(summary.best_pct_copy.value_or(0.0), *row.pct_copy);
    auto speedup = row.speedup_vs_best();
    if (!speedup || *speedup <= 0) continue;
    ++summary.timed;
    summary.log_speedup_sum += std::log(*speedup);
    if (*speedup > 1) ++summary.faster;
  }
  return summary;
}

void write_header(std::ostringstream& md, const BenchResults& results, const ReportRequest& request,
                  const PreviousRun& previous, const std::string& plot_note) {
  md << "# Benchmark: " << request.title << "\n\n";
  md << "| | |\n|---|---|\n";
  md << "| Machine | " << cell(describe_machine(results.machine)) << " |\n";
  std::string written = format_utc(std::chrono::system_clock::now(), "%Y-%m-%d %H:%M UTC");
  md << "| Date | "
     << cell(results.date_utc.empty() ? written : results.date_utc + " (report " + written + ")") << " |\n";
  if (!request.where.empty()) md << "| Ran | " << cell(request.where) << " |\n";
  md << "| Copy bandwidth | "
     << (results.copy_gbs > 0
             ? format_gbs(results.copy_gbs) + " GB/s (device-to-device copy, bytes read + written)"
             : std::string("not measured"))
     << " |\n";
  md << "| Compared with | "
     << (previous.results        ? previous.name + " (the previous run)"
         : previous.note.empty() ? std::string("nothing: first run in history/")
                                 : cell(previous.note))
     << " |\n\n";
  if (plot_note.empty())
    md << "![Speedup against the best peer and % of copy per shape](speedup.svg)\n\n";
  else
    md << "> " << plot_note << "\n\n";
}

void write_summary(std::ostringstream& md, const BenchResults& results) {
  md << "## Summary\n\n"
     << "| op | shapes | faster than the best peer | geometric-mean speedup vs best peer | best % of copy |\n"
     << "|---|---:|---:|---:|---:|\n";
  for (const auto& op : results.ops()) {
    OpSummary s = summarize(results, op);
    md << "| " << cell(op) << " | " << s.shapes << " | " << s.faster << " of " << s.timed << " | "
       << (s.timed ? format_speedup(std::exp(s.log_speedup_sum / static_cast<double>(s.timed))) : "–")
       << " | " << (s.best_pct_copy ? format("%.1f", *s.best_pct_copy) : "–") << " |\n";
  }
  md << "\n";
}

std::string speedup_cell(const BenchRow& row, const std::string& peer) {
  if (const PeerTiming* p = row.peer(peer); p && row.ours_us) {
    std::string text = format_speedup(p->speedup);
    return row.best_peer == peer ? "**" + text + "**" : text;
  }
  if (row.errors.count(peer)) return "error";
  return "–";
}

void write_op_table(std::ostringstream& md, const BenchResults& results, const std::string& op,
                    const std::vector<std::optional<double>>& changes, bool compared) {
  auto peers = results.peers(op);
  md << "## " << op << "\n\n| shape | ours µs | GB/s | % of copy |";
  for (const auto& peer : peers) md << " vs " << cell(peer) << " |";
  if (compared) md << " change |";
  md << "\n|---|---:|---:|---:|";
  for (size_t i = 0; i < peers.size() + (compared ? 1 : 0); ++i) md << "---:|";
  md << "\n";
  std::vector<std::string> errors;
  for (size_t i = 0; i < results.rows.size(); ++i) {
    const BenchRow& row = results.rows[i];
    if (row.op != op) continue;
    md << "| " << cell(row.shape) << " | "
       << (row.ours_us ? format_us(*row.ours_us) + (row.ours_rounds > 1 ? " †" : "") : std::string("error"))
       << " | " << (row.gbs ? format_gbs(*row.gbs) : "–") << " | "
       << (row.pct_copy ? format("%.1f", *row.pct_copy) : "–") << " |";
    for (const auto& peer : peers) md << " " << speedup_cell(row, peer) << " |";
    if (compared) md << " " << (changes[i] ? format_change(*changes[i]) : "–") << " |";
    md << "\n";
    for (const auto& [impl, message] : row.errors) errors.push_back(row.shape + ", " + impl + ": " + message);
  }
  md << "\n";
  if (!errors.empty()) {
    md << "Errors:\n\n";
    for (const auto& e : errors) md << "- `" << cell(e) << "`\n";
    md << "\n";
  }
}

std::string render_markdown(const BenchResults& results, const ReportRequest& request,
                            const PreviousRun& previous, const std::string& plot_note) {
  std::ostringstream md;
  write_header(md, results, request, previous, plot_note);
  write_summary(md, results);
  bool compared = previous.results.has_value();
  std::vector<std::optional<double>> changes =
      compared ? ours_time_change_pct(results, *previous.results) : std::vector<std::optional<double>>();
  for (const auto& op : results.ops()) write_op_table(md, results, op, changes, compared);
  md << "Speedup: the peer's time over ours (above 1: ours is faster); bold: the fastest peer of the shape. "
        "% of copy: the op's minimum bytes over its time, against the copy bandwidth above. "
        "†: a close call, ours and the best peer timed several times, alternately; medians shown.";
  if (compared) md << " change: ours' time against " << previous.name << " (negative: faster now).";
  md << "\n";
  return md.str();
}

// ---- the folder ---------------------------------------------------------------------------

// Removes a staging folder unless it was moved into place.
struct StagingFolder {
  fs::path path;
  bool kept = false;
  ~StagingFolder() {
    std::error_code ec;
    if (!kept) fs::remove_all(path, ec);
  }
};

// Puts `staged` where `target` is: one atomic exchange where the file system can (Linux
// renameat2), else two renames with the old folder moved back if the second fails.
Result<bool> move_into_place(const fs::path& staged, const fs::path& target) {
  std::error_code ec;
  if (!fs::exists(target, ec)) {
    fs::rename(staged, target, ec);
    if (ec) return make_error("cannot move the report into " + target.string() + ": " + ec.message());
    return true;
  }
  if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    fs::remove_all(staged, ec);  // now holds the old folder
    return true;
  }
  fs::path aside = temporary_sibling(target);
  fs::rename(target, aside, ec);
  if (ec) return make_error("cannot replace " + target.string() + ": " + ec.message());
  fs::rename(staged, target, ec);
  if (ec) {
    std::error_code back;
    fs::rename(aside, target, back);
    return make_error("cannot move the report into " + target.string() + ": " + ec.message());
  }
  fs::remove_all(aside, ec);
  return true;
}

Result<bool> write_into(const fs::path& path, const std::string& text) {
  if (!write_file_atomically(path, text)) return make_error("cannot write " + path.string());
  return true;
}

}  // namespace

Result<fs::path> write_report(const BenchResults& results, const ReportRequest& request) {
  std::error_code ec;
  fs::path target = absolute_normal(request.report_dir);
  fs::create_directories(target.parent_path(), ec);
  if (ec) return make_error("cannot create " + target.parent_path().string() + ": " + ec.message());
  StagingFolder staging{temporary_sibling(target)};
  if (fs::is_directory(target, ec))
    fs::copy(target, staging.path, fs::copy_options::recursive, ec);
  else if (fs::exists(target, ec))
    return make_error(target.string() + " exists and is not a folder");
  else
    fs::create_directory(staging.path, ec);
  if (!ec) fs::create_directories(staging.path / "history", ec);
  if (ec) return make_error("cannot prepare the report beside " + target.string() + ": " + ec.message());

  auto entries = history_entries(staging.path / "history");
  PreviousRun previous = read_previous(entries);
  if (auto w = write_into(new_history_path(staging.path / "history", entries), request.raw_results); !w)
    return w.error();
  if (auto w = write_into(staging.path / "results.json", to_json(results).dump(1) + "\n"); !w)
    return w.error();
  fs::remove(staging.path / "speedup.svg", ec);  // a plot of an earlier run must not stay
  std::string plot_note = draw_plot(staging.path / "results.json", staging.path / "speedup.svg", request);
  if (auto w = write_into(staging.path / "report.md", render_markdown(results, request, previous, plot_note));
      !w)
    return w.error();
  if (auto moved = move_into_place(staging.path, target); !moved) return moved.error();
  staging.kept = true;
  return target / "report.md";
}

}  // namespace kl::runner
