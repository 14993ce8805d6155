#include "cli/test_command.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "cli/report.h"
#include "guidance/guidance_links.h"
#include "runner/project_test.h"
#include "support/fs_paths.h"
#include "support/interrupt.h"
#include "support/line_index.h"

namespace kl::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "kernel-lsp test: ";

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

// The findings grouped by file, each over its line's code (the tools name lines, not columns).
LintReport report_of(std::vector<analyzers::Finding> findings) {
  LintReport report;
  std::map<std::string, size_t> index;
  for (auto& f : findings) {
    auto [it, added] = index.try_emplace(f.location.file, report.files.size());
    if (added) {
      FileResult result;
      result.path = display_path(f.location.file);
      result.text = read_file_text(f.location.file).value_or("");
      report.files.push_back(std::move(result));
    }
    FileResult& file = report.files[it->second];
    LineIndex lines(file.text);
    std::string_view code = lines.line_text(f.location.range.start.line);
    if (size_t first = code.find_first_not_of(" \t"); first != std::string_view::npos) {
      f.location.range.start.column = static_cast<uint32_t>(first);
      f.location.range.end.column = static_cast<uint32_t>(code.find_last_not_of(" \t\r") + 1);
    }
    file.findings.push_back(std::move(f));
  }
  report.files_analysed = report.files.size();
  return report;
}

}  // namespace

int run_test(const TestOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.from_output.empty() && options.tools.size() != 1) {
    err << kPrefix << "--from-output reads one tool's output: name it with --sanitize (memcheck, racecheck, ...)\n";
    return 2;
  }
  runner::TestRequest request;
  request.project = options.project;
  request.command = options.command;
  request.tools = options.tools;
  request.cuda_path = options.cuda_path;
  request.timeout_seconds = options.timeout_seconds;
  request.from_output = options.from_output;
  request.cancel = &interrupt_token();  // Ctrl-C ends the tests and everything they started
  request.on_output = [&](std::string_view chunk) {
    if (options.tools.empty()) out << chunk << std::flush;
  };
  request.on_progress = [&](const std::string& stage, int percent) {
    if (percent < 100 && options.from_output.empty()) err << kPrefix << stage << "\n" << std::flush;
  };
  auto outcome = runner::run_project_tests(request);
  if (!outcome) {
    err << kPrefix << outcome.error().describe() << (options.command.empty() && outcome.error().message.find("give the tests' command") != std::string::npos ? " with --command" : "") << "\n";
    return 2;
  }
  if (outcome->cancelled) {
    err << kPrefix << "interrupted\n";
    return 130;
  }
  for (const auto& run : outcome->runs) {
    if (run.timed_out) err << kPrefix << (run.tool.empty() ? "the tests" : run.tool) << " timed out\n";
    if (run.tests)
      err << kPrefix << (run.tool.empty() ? std::string("tests") : "tests under " + run.tool) << ": "
          << run.tests->passed << " passed, " << run.tests->failed << " failed, " << run.tests->skipped
          << " skipped, " << run.tests->errors << " errors (pytest)\n";
    if (!run.tool.empty())
      err << kPrefix << run.tool << ": " << run.reports << " report(s), " << run.findings << " finding(s) at source lines"
          << (run.unplaced ? " (" + std::to_string(run.unplaced) + " without one: build with -lineinfo)" : std::string())
          << "\n";
  }
  for (const auto& note : outcome->shape_notes) err << kPrefix << "note: " << note << "\n";
  bool found = !outcome->findings.empty();
  if (!options.tools.empty()) write_report(report_of(std::move(outcome->findings)), options.format, out, err);
  if (outcome->tests_failed) err << kPrefix << "the tests exited with an error\n";
  return found || outcome->tests_failed ? 1 : 0;
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
