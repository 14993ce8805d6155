#include "runner/bench_report.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "runner/bench_results.h"
#include "runner/project_bench.h"
#include "support/fs_paths.h"
#include "support/process.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A real run of the four reference kernels on an H200 (bench_util.Recorder's rows).
const fs::path kRealRun = fs::path(KL_SOURCE_DIR) / "bench/kernels/results/h200-final.json";

std::string real_run_text() {
  auto text = kl::read_file_text(kRealRun);
  REQUIRE(text);
  return *text;
}

struct TempFolder {
  fs::path path;
  TempFolder() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("kl_bench_report_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

double raw_time(const json& row) {
  return row.contains("us_median") ? row["us_median"].get<double>() : row["us"].get<double>();
}

size_t count_entries(const fs::path& folder) {
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator(folder)) n += entry.is_regular_file() ? 1 : 0;
  return n;
}

bool matplotlib_present() {
  if (!fs::exists("/usr/bin/python3")) return false;
  auto probe = kl::run_process({"/usr/bin/python3", {"-c", "import matplotlib"}});
  return probe && probe->exit_code == 0;
}

}  // namespace

TEST_CASE("the H200 run's rows become one row per op and shape, speedups recomputed from the raw rows") {
  json raw = json::parse(real_run_text());
  auto results = kl::runner::parse_bench_results(raw.dump());
  REQUIRE(results);
  CHECK(results->copy_gbs == Approx(raw["copy_gbs"].get<double>()));
  CHECK(results->machine["gpu"] == raw["machine"]["gpu"]);

  // The test's own grouping of the raw rows: (op, shape) -> impl -> row, variants of ours left out.
  std::map<std::pair<std::string, std::string>, std::map<std::string, json>> grouped;
  for (const auto& row : raw["rows"]) {
    std::string impl = row["impl"];
    if (impl != "ours" && impl.rfind("ours", 0) == 0) continue;
    grouped[{row["op"], row["shape"]}].emplace(impl, row);
  }
  REQUIRE(results->rows.size() == grouped.size());
  size_t speedups_checked = 0;
  for (const auto& row : results->rows) {
    INFO(row.op << " " << row.shape);
    const auto& impls = grouped.at({row.op, row.shape});
    REQUIRE(row.ours_us);
    CHECK(*row.ours_us == Approx(raw_time(impls.at("ours"))));
    CHECK(*row.pct_copy == Approx(impls.at("ours")["pct_copy"].get<double>()));
    std::string fastest;
    for (const auto& [impl, raw_row] : impls) {
      if (impl == "ours") continue;
      const auto* peer = row.peer(impl);
      REQUIRE(peer);
      CHECK(peer->speedup == Approx(raw_time(raw_row) / raw_time(impls.at("ours"))));
      ++speedups_checked;
      if (fastest.empty() || raw_time(raw_row) < raw_time(impls.at(fastest))) fastest = impl;
    }
    CHECK(row.peers.size() == impls.size() - 1);
    CHECK(row.best_peer == fastest);
    for (const auto& p : row.peers) CHECK(p.impl.rfind("ours", 0) != 0);
  }
  CHECK(speedups_checked > 100);
  CHECK(results->ops().size() == 13);

  json answer = kl::runner::to_json(*results);
  const json& first = answer["rows"][0];
  CHECK(first["op"] == results->rows[0].op);
  CHECK(first["time_us"].get<double>() == Approx(*results->rows[0].ours_us));
  CHECK(first["best_peer"] == *results->rows[0].best_peer);
  CHECK(first["speedup"][*results->rows[0].best_peer].get<double>() ==
        Approx(*results->rows[0].speedup_vs_best()));
  CHECK(first["errors"].empty());
}

TEST_CASE("a re-timed close call counts by its median; errors are kept per implementation") {
  const char* text = R"({"copy_gbs": 4000, "rows": [
    {"op": "k", "shape": "8", "impl": "ours", "us": 10.0, "gbs": 100.0, "pct_copy": 2.5,
     "us_median": 8.0, "rounds_us": [10, 8, 8, 9, 7]},
    {"op": "k", "shape": "8", "impl": "ours_v2", "us": 1.0},
    {"op": "k", "shape": "8", "impl": "eager", "us": 9.0, "us_median": 12.0},
    {"op": "k", "shape": "8", "impl": "liger", "error": "RuntimeError: no kernel image"}]})";
  auto results = kl::runner::parse_bench_results(text);
  REQUIRE(results);
  REQUIRE(results->rows.size() == 1);
  const auto& row = results->rows[0];
  CHECK(*row.ours_us == Approx(8.0));
  CHECK(row.ours_rounds == 5);
  CHECK(*row.gbs == Approx(125.0));  // rescaled from the single timing to the median
  CHECK(*row.pct_copy == Approx(3.125));
  REQUIRE(row.peers.size() == 1);
  CHECK(row.peers[0].speedup == Approx(1.5));
  CHECK(row.best_peer == "eager");
  CHECK(row.errors.at("liger") == "RuntimeError: no kernel image");
  CHECK(results->peers() == std::vector<std::string>{"eager", "liger"});
}

TEST_CASE("malformed benchmark JSON is an error that says what was wrong") {
  auto check = [](const std::string& text, const std::string& expected) {
    auto parsed = kl::runner::parse_bench_results(text);
    INFO(text);
    REQUIRE_FALSE(parsed);
    CHECK_THAT(parsed.error().message, Catch::Contains(expected));
  };
  check("copy bandwidth 4200 GB/s", "not valid JSON");
  check(R"({"rows": [)", "not valid JSON");
  check("[1, 2]", "not a JSON object");
  check(R"({"copy_gbs": 1000})", "\"rows\"");
  check(R"({"rows": [{"op": "k", "shape": "8", "impl": "ours", "us": 1}, {"op": "k", "shape": "8"}]})",
        "rows[1]: \"impl\" is missing");
  check(R"({"rows": [{"op": "k", "shape": "8", "impl": "ours", "us": "fast"}]})", "\"us\" is not a number");
  check(R"({"rows": [{"op": "k", "shape": "8", "impl": "ours", "us": -3}]})", "positive");
  check(R"({"copy_gbs": "lots", "rows": []})", "copy_gbs");
}

TEST_CASE("two reports into one folder: history of both, the second compares with the first") {
  TempFolder temp;
  fs::path reports = temp.path / "reports";
  std::string first_text = real_run_text();
  auto first = kl::runner::parse_bench_results(first_text);
  REQUIRE(first);
  kl::runner::ReportRequest request{reports, "reference kernels", "from the test", first_text};
  auto report = kl::runner::write_report(*first, request);
  REQUIRE(report);
  CHECK(*report == reports / "report.md");
  auto md = kl::read_file_text(*report);
  REQUIRE(md);
  CHECK_THAT(*md, Catch::Contains("NVIDIA H200"));
  CHECK_THAT(*md, Catch::Contains("first run in history"));
  CHECK_THAT(*md, !Catch::Contains("| change |"));
  for (const auto& op : first->ops()) CHECK_THAT(*md, Catch::Contains("## " + op));
  CHECK(count_entries(reports / "history") == 1);
  CHECK(fs::exists(reports / "results.json"));

  // The second run: ours 10 % slower at the first shape, 20 % faster at the second.
  json second_raw = json::parse(first_text);
  const auto& row0 = first->rows[0];
  const auto& row1 = first->rows[1];
  for (auto& row : second_raw["rows"]) {
    if (row["impl"] != "ours") continue;
    if (row["op"] == row0.op && row["shape"] == row0.shape) row["us"] = row["us"].get<double>() * 1.10;
    if (row["op"] == row1.op && row["shape"] == row1.shape) row["us"] = row["us"].get<double>() * 0.80;
  }
  auto second = kl::runner::bench_results_from_json(second_raw);
  REQUIRE(second);
  request.raw_results = second_raw.dump();
  report = kl::runner::write_report(*second, request);
  REQUIRE(report);
  md = kl::read_file_text(*report);
  REQUIRE(md);
  CHECK(count_entries(reports / "history") == 2);
  CHECK_THAT(*md, Catch::Contains("change |"));
  CHECK_THAT(*md, Catch::Contains("(the previous run)"));
  CHECK_THAT(*md, Catch::Contains("| " + row0.shape + " | "));
  CHECK_THAT(*md, Catch::Contains("+10.0 % |"));
  CHECK_THAT(*md, Catch::Contains("−20.0 % |"));
  // Nothing of the staging folders is left beside the report folder.
  CHECK(count_entries(temp.path) == 0);
  size_t folders = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(temp.path)) ++folders;
  CHECK(folders == 1);

  if (!matplotlib_present()) {
    WARN(
        "/usr/bin/python3 cannot import matplotlib: the plot check was skipped (apt install "
        "python3-matplotlib)");
    CHECK_THAT(*md, Catch::Contains("Plot skipped"));
    CHECK_THAT(*md, Catch::Contains(kl::runner::kMatplotlibInstallHint));
    return;
  }
  auto svg = kl::read_file_text(reports / "speedup.svg");
  REQUIRE(svg);
  CHECK(svg->rfind("<?xml", 0) == 0);
  CHECK_THAT(*svg, Catch::Contains("<svg"));
  CHECK_THAT(*md, Catch::Contains("(speedup.svg)"));
}

TEST_CASE("without a Python that has matplotlib the report says the plot was skipped and how to get it") {
  TempFolder temp;
  auto results =
      kl::runner::parse_bench_results(R"({"rows": [{"op": "k", "shape": "8", "impl": "ours", "us": 1}]})");
  REQUIRE(results);
  kl::runner::ReportRequest request{temp.path / "reports", "k", "", "{}"};
  request.pythons = {(temp.path / "no-such-python").string()};
  auto report = kl::runner::write_report(*results, request);
  REQUIRE(report);
  auto md = kl::read_file_text(*report);
  REQUIRE(md);
  CHECK_THAT(*md, Catch::Contains("Plot skipped"));
  CHECK_THAT(*md, Catch::Contains(kl::runner::kMatplotlibInstallHint));
  CHECK_THAT(*md, !Catch::Contains("(speedup.svg)"));
  CHECK_FALSE(fs::exists(temp.path / "reports" / "speedup.svg"));
}

TEST_CASE("a report that cannot be put in place leaves nothing behind") {
  TempFolder temp;
  fs::path blocker = temp.path / "not-a-folder";
  REQUIRE(kl::write_file_atomically(blocker, "a file where the report folder's parent should be"));
  auto results =
      kl::runner::parse_bench_results(R"({"rows": [{"op": "k", "shape": "8", "impl": "ours", "us": 1}]})");
  REQUIRE(results);
  kl::runner::ReportRequest request{blocker / "reports", "k", "", "{}"};
  CHECK_FALSE(kl::runner::write_report(*results, request));
  CHECK(count_entries(temp.path) == 1);  // the blocker, nothing else
}

TEST_CASE("the runner's results are the text between the last pair of markers") {
  std::string output =
      "building...\n::kernel-lsp:: results begin\n{\"stale\": 1}\n::kernel-lsp:: results end\n"
      "more output\r\n::kernel-lsp:: results begin\r\n{\"rows\": []}\r\n::kernel-lsp:: results end\r\n";
  auto found = kl::runner::results_between_markers(output);
  REQUIRE(found);
  CHECK(json::parse(*found) == json::parse(R"({"rows": []})"));
  // A results file printed without a final newline puts the end marker on the JSON's last line.
  auto glued = kl::runner::results_between_markers(
      "::kernel-lsp:: results begin\n{\"rows\":\n[]}::kernel-lsp:: results end\n");
  REQUIRE(glued);
  CHECK(json::parse(*glued) == json::parse(R"({"rows": []})"));
  CHECK_FALSE(kl::runner::results_between_markers("::kernel-lsp:: results begin\n{\"rows\": []}\n"));
  CHECK_FALSE(kl::runner::results_between_markers("no markers at all\n"));
}

TEST_CASE("the runner script is valid sh and carries the project without its reports") {
  TempFolder temp;
  fs::path project = temp.path / "rmsnorm";
  fs::copy(fs::path(KL_SOURCE_DIR) / "kernels/rmsnorm", project, fs::copy_options::recursive);
  fs::create_directories(project / "benchmarks/reports/history");
  REQUIRE(kl::write_file_atomically(project / "benchmarks/reports/history/old.json", "{}"));
  auto script = kl::runner::runner_script(project, project / "benchmarks/reports");
  REQUIRE(script);
  CHECK(script->find("@KL_") == std::string::npos);
  fs::path file = temp.path / "script.sh";
  REQUIRE(kl::write_file_atomically(file, *script));
  auto syntax = kl::run_process({"/bin/sh", {"-n", file.string()}});
  REQUIRE(syntax);
  CHECK(syntax->exit_code == 0);

  // Unpack the project payload the way the script does, and look at what it holds.
  size_t begin = script->find("<<'KERNEL_LSP_PROJECT'\n");
  REQUIRE(begin != std::string::npos);
  begin = script->find('\n', begin) + 1;
  size_t end = script->find("\nKERNEL_LSP_PROJECT\n", begin);
  REQUIRE(end != std::string::npos);
  REQUIRE(kl::write_file_atomically(temp.path / "payload.b64", script->substr(begin, end - begin) + "\n"));
  auto listed = kl::run_process(
      {"/bin/sh", {"-c", "base64 -d \"$0\" | tar -tzf -", (temp.path / "payload.b64").string()}});
  REQUIRE(listed);
  REQUIRE(listed->exit_code == 0);
  CHECK_THAT(listed->stdout_text, Catch::Contains("./build.toml"));
  CHECK_THAT(listed->stdout_text, Catch::Contains("./benchmarks/benchmark.py"));
  CHECK_THAT(listed->stdout_text, Catch::Contains("./benchmarks/bench_util.py"));
  CHECK_THAT(listed->stdout_text, !Catch::Contains("reports"));
}
