#include "cli/test_command.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "analyzers/frontend/cuda_toolkit.h"
#include "cli/report.h"
#include "guidance/guidance_links.h"
#include "runner/sanitizer_messages.h"
#include "support/fs_paths.h"
#include "support/line_index.h"
#include "support/interrupt.h"
#include "support/process.h"

namespace kl::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "kernel-lsp test: ";
const std::set<std::string> kTools = {"memcheck", "racecheck", "synccheck", "initcheck"};

// The tests' command: the one given, else pytest over the project's tests/ folder.
std::string test_command(const TestOptions& options, const fs::path& project) {
  if (!options.command.empty()) return options.command;
  std::error_code ec;
  if (fs::is_directory(project / "tests", ec)) return "python3 -m pytest -x -q tests";
  return "";
}

fs::path find_sanitizer(const TestOptions& options) {
  std::vector<fs::path> candidates;
  if (!options.cuda_path.empty()) candidates.push_back(fs::path(options.cuda_path) / "bin" / "compute-sanitizer");
  if (fs::path on_path = find_on_path("compute-sanitizer"); !on_path.empty()) candidates.push_back(on_path);
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* v = std::getenv(var); v && *v) candidates.push_back(fs::path(v) / "bin" / "compute-sanitizer");
  candidates.push_back("/usr/local/cuda/bin/compute-sanitizer");
  std::error_code ec;
  for (const fs::path& c : candidates)
    if (fs::is_regular_file(c, ec)) return c;
  return {};
}

// The file on disk a report names: absolute as printed, else under the project (as compiled,
// `src/a.cu`), else the one file under the project whose path ends the same way.
fs::path resolve_in(const fs::path& project, const std::string& printed) {
  std::error_code ec;
  fs::path p(printed);
  if (p.is_absolute()) return fs::is_regular_file(p, ec) ? p : fs::path();
  if (fs::is_regular_file(project / p, ec)) return absolute_normal(project / p);
  fs::path found;
  for (auto it = fs::recursive_directory_iterator(project, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it.depth() > 8) it.disable_recursion_pending();
    if (!it->is_regular_file(ec)) continue;
    std::string whole = it->path().generic_string();
    std::string tail = "/" + p.generic_string();
    if (whole.size() >= tail.size() && whole.compare(whole.size() - tail.size(), tail.size(), tail) == 0) {
      if (!found.empty()) return {};  // two candidates: not guessed
      found = it->path();
    }
  }
  return found;
}

void write_report(const LintReport& report, const std::string& format, std::ostream& out, std::ostream& err) {
  const guidance::GuidanceLinks links = guidance::GuidanceLinks::for_setting("");
  if (format == "json") write_json_report(report, out, links);
  else if (format == "sarif") write_sarif_report(report, out, links);
  else if (format == "github") {
    write_github_report(report, out);
    err << summary_line(report) << "\n";
  } else {
    write_text_report(report, out, false);
  }
}

}  // namespace

int run_test(const TestOptions& options, std::ostream& out, std::ostream& err) {
  fs::path project = absolute_normal(options.project);
  std::error_code ec;
  if (!fs::is_directory(project, ec)) {
    err << kPrefix << options.project << " is not a folder\n";
    return 2;
  }
  std::string command = options.from_output.empty() ? test_command(options, project) : options.command;
  if (command.empty() && options.from_output.empty()) {
    err << kPrefix << "no tests/ folder in " << project.string() << ": give the tests' command with --command\n";
    return 2;
  }
  for (const std::string& tool : options.tools)
    if (!kTools.count(tool)) {
      err << kPrefix << "unknown compute-sanitizer tool `" << tool << "` (memcheck, racecheck, synccheck, initcheck)\n";
      return 2;
    }
  if (!options.from_output.empty() && options.tools.size() != 1) {
    err << kPrefix << "--from-output reads one tool's output: name it with --sanitize (memcheck, racecheck, ...)\n";
    return 2;
  }
  fs::path sanitizer;
  if (!options.tools.empty() && options.from_output.empty()) {
    sanitizer = find_sanitizer(options);
    if (sanitizer.empty()) {
      err << kPrefix << "compute-sanitizer not found (looked in --cuda-path, PATH, CUDA_PATH, CUDA_HOME and "
          << "/usr/local/cuda/bin): install the CUDA toolkit or give --cuda-path\n";
      return 2;
    }
  }
  std::vector<std::string> runs = options.tools.empty() ? std::vector<std::string>{""} : options.tools;
  LintReport report;
  std::map<std::string, size_t> file_index;
  bool tests_failed = false;
  for (const std::string& tool : runs) {
    ProcessRequest request;
    if (tool.empty()) {
      request.program = "/bin/sh";
      request.args = {"-c", command};
    } else {
      request.program = sanitizer;
      request.args = {"--tool", tool, "--print-limit", "200", "--target-processes", "all", "/bin/sh", "-c", command};
    }
    request.working_directory = project;
    request.timeout = std::chrono::seconds(options.timeout_seconds);
    request.should_stop = [] { return interrupt_token().is_cancelled(); };
    if (options.from_output.empty())
      err << kPrefix << (tool.empty() ? "running" : "running under " + tool) << ": " << command << "\n" << std::flush;
    std::string output;
    if (!options.from_output.empty()) {
      auto text = read_file_text(options.from_output);
      if (!text) {
        err << kPrefix << "cannot read " << options.from_output << "\n";
        return 2;
      }
      output = *text;
    } else {
      auto outcome = run_process(request);
      if (!outcome) {
        err << kPrefix << outcome.error().describe() << "\n";
        return 2;
      }
      if (outcome->timed_out) err << kPrefix << (tool.empty() ? "the tests" : tool) << " timed out\n";
      output = outcome->stdout_text + outcome->stderr_text;
      if (outcome->exit_code != 0) tests_failed = true;
    }
    if (tool.empty()) {
      out << output;
      continue;
    }
    auto reports = runner::parse_sanitizer_output(output, tool);
    size_t unplaced = 0;
    std::string context = command.empty() ? "" : "(while running `" + command + "`)";
    auto findings = runner::sanitizer_findings(reports, context,
                                               [&](const std::string& printed) { return resolve_in(project, printed); });
    for (const auto& r : reports) unplaced += r.line ? 0 : 1;
    err << kPrefix << tool << ": " << reports.size() << " report(s), " << findings.size() << " at source lines"
        << (unplaced ? " (" + std::to_string(unplaced) + " without one: build with -lineinfo)" : std::string()) << "\n";
    for (auto& f : findings) {
      auto [it, added] = file_index.try_emplace(f.location.file, report.files.size());
      if (added) {
        FileResult result;
        result.path = display_path(f.location.file);
        result.text = read_file_text(f.location.file).value_or("");
        report.files.push_back(std::move(result));
      }
      // The whole line's code as the range: the tools name lines, not columns.
      LineIndex lines(report.files[it->second].text);
      std::string_view code = lines.line_text(f.location.range.start.line);
      size_t first = code.find_first_not_of(" \t");
      if (first != std::string_view::npos) {
        f.location.range.start.column = static_cast<uint32_t>(first);
        f.location.range.end.column = static_cast<uint32_t>(code.find_last_not_of(" \t\r") + 1);
      }
      report.files[it->second].findings.push_back(std::move(f));
    }
  }
  report.files_analysed = report.files.size();
  if (!options.tools.empty()) write_report(report, options.format, out, err);
  bool found = false;
  for (const auto& file : report.files) found = found || !file.findings.empty();
  if (tests_failed) err << kPrefix << "the tests exited with an error\n";
  return found || tests_failed ? 1 : 0;
}

RegisteredCommand add_test_command(CLI::App& app) {
  auto options = std::make_shared<TestOptions>();
  auto* test = app.add_subcommand(
      "test", "Run a project's tests, under compute-sanitizer with --sanitize, and report what it finds at source lines");
  test->add_option("dir", options->project, "The project folder (its tests/ folder runs with pytest)")->required();
  test->add_option("--command", options->command, "The tests' command line, run with /bin/sh -c in the project folder");
  test->add_option("--sanitize", options->tools,
                   "compute-sanitizer tools to run the tests under: memcheck, racecheck, synccheck, initcheck")
      ->delimiter(',')
      ->expected(0, 4)
      ->default_str("memcheck");
  test->add_option("--format", options->format, "text | json | sarif | github")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  test->add_option("--cuda-path", options->cuda_path, "CUDA toolkit folder holding bin/compute-sanitizer");
  test->add_option("--timeout", options->timeout_seconds, "Seconds each run may take (default 1800)");
  test->add_option("--from-output", options->from_output,
                   "Report the output of a compute-sanitizer run made elsewhere (one --sanitize tool); nothing runs");
  return {test, [options, test] {
            // `--sanitize` alone means memcheck.
            if (test->count("--sanitize") > 0 && options->tools.empty()) options->tools = {"memcheck"};
            return run_test(*options, std::cout, std::cerr);
          }};
}

}  // namespace kl::cli
