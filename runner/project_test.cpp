#include "runner/project_test.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <set>

#include "runner/sanitizer_messages.h"
#include "runner/test_shapes.h"
#include "support/fs_paths.h"
#include "support/process.h"
#include "support/resources.h"

namespace kl::runner {
namespace fs = std::filesystem;

namespace {

const std::set<std::string> kTools = {"memcheck", "racecheck", "synccheck", "initcheck"};

fs::path find_sanitizer(const fs::path& cuda_path) {
  std::vector<fs::path> candidates;
  if (!cuda_path.empty()) candidates.push_back(cuda_path / "bin" / "compute-sanitizer");
  if (fs::path on_path = find_on_path("compute-sanitizer"); !on_path.empty()) candidates.push_back(on_path);
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* v = std::getenv(var); v && *v) candidates.push_back(fs::path(v) / "bin" / "compute-sanitizer");
  candidates.push_back("/usr/local/cuda/bin/compute-sanitizer");
  std::error_code ec;
  for (const fs::path& c : candidates)
    if (fs::is_regular_file(c, ec)) return c;
  return {};
}

}  // namespace

fs::path resolve_reported_file(const fs::path& project, const std::string& printed) {
  std::error_code ec;
  fs::path p(printed);
  if (p.is_absolute()) return fs::is_regular_file(p, ec) ? p : fs::path();
  if (fs::is_regular_file(project / p, ec)) return absolute_normal(project / p);
  fs::path found;
  std::string tail = "/" + p.generic_string();
  for (auto it = fs::recursive_directory_iterator(project, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it.depth() > 8) it.disable_recursion_pending();
    if (!it->is_regular_file(ec)) continue;
    std::string whole = it->path().generic_string();
    if (whole.size() >= tail.size() && whole.compare(whole.size() - tail.size(), tail.size(), tail) == 0) {
      if (!found.empty()) return {};  // two candidates: not guessed
      found = it->path();
    }
  }
  return found;
}

namespace {

// The command (pytest over tests/ when none is given) and the compute-sanitizer to run it under;
// an Error when the request cannot run at all.
Result<fs::path> prepare(const TestRequest& request, const fs::path& project, TestOutcome& outcome) {
  std::error_code ec;
  if (!fs::is_directory(project, ec)) return make_error(request.project.string() + " is not a folder");
  outcome.command = request.command;
  if (outcome.command.empty() && request.from_output.empty()) {
    if (!fs::is_directory(project / "tests", ec))
      return make_error("no tests/ folder in " + project.string() + ": give the tests' command");
    outcome.command = "python3 -m pytest -x -q tests";
  }
  for (const std::string& tool : request.tools)
    if (!kTools.count(tool))
      return make_error("unknown compute-sanitizer tool `" + tool + "` (memcheck, racecheck, synccheck, initcheck)");
  if (!request.from_output.empty() && request.tools.size() != 1)
    return make_error("a compute-sanitizer output made elsewhere is one tool's: name that tool");
  if (request.tools.empty() || !request.from_output.empty()) return fs::path();
  fs::path sanitizer = find_sanitizer(request.cuda_path);
  if (sanitizer.empty())
    return make_error("compute-sanitizer not found (looked in the CUDA path given, PATH, CUDA_PATH, CUDA_HOME and "
                      "/usr/local/cuda/bin): install the CUDA toolkit or give its folder");
  return sanitizer;
}

// One run of the tests (under `tool` when not empty), or the output made elsewhere: what it
// printed. Nothing when it was stopped.
Result<std::optional<std::string>> run_once(const TestRequest& request, const fs::path& project,
                                            const fs::path& sanitizer, const std::string& command,
                                            const fs::path& shapes_folder, TestRun& run) {
  if (!request.from_output.empty()) {
    auto text = read_file_text(request.from_output);
    if (!text) return make_error("cannot read " + request.from_output.string());
    return std::optional<std::string>(*text);
  }
  ProcessRequest process;
  if (run.tool.empty()) {
    process.program = "/bin/sh";
    process.args = {"-c", command};
  } else {
    process.program = sanitizer;
    process.args = {"--tool", run.tool, "--print-limit", "200", "--target-processes", "all", "/bin/sh", "-c", command};
  }
  process.working_directory = project;
  if (!shapes_folder.empty()) {
    // pytest loads the plugin that records the operators' shapes (kernel_lsp_shapes.py) from here.
    std::optional<fs::path> plugin = find_resource(resources::kPytestShapesPlugin);
    if (plugin) {
      process.extra_environment["PYTHONPATH"] = prepended_to_environment("PYTHONPATH", plugin->parent_path().string(), ':');
      process.extra_environment["PYTEST_PLUGINS"] = prepended_to_environment("PYTEST_PLUGINS", "kernel_lsp_shapes", ',');
      process.extra_environment["KERNEL_LSP_SHAPES_OUT"] = shapes_folder.string();
    }
  }
  process.timeout = std::chrono::seconds(request.timeout_seconds);
  process.should_stop = [&request] {
    return (request.cancel && request.cancel->is_cancelled()) || (request.should_stop && request.should_stop());
  };
  process.on_output = request.on_output;
  auto ran = run_process(process);
  if (!ran) return ran.error();
  if (ran->stopped) return std::optional<std::string>();
  run.exit_code = ran->exit_code;
  run.timed_out = ran->timed_out;
  return std::optional<std::string>(ran->stdout_text + ran->stderr_text);
}

}  // namespace

Result<TestOutcome> run_project_tests(const TestRequest& request) {
  fs::path project = absolute_normal(request.project);
  TestOutcome outcome;
  auto sanitizer = prepare(request, project, outcome);
  if (!sanitizer) return sanitizer.error();
  std::vector<std::string> tools = request.tools.empty() ? std::vector<std::string>{""} : request.tools;
  std::set<std::string> seen;  // a finding once, whichever run reported it
  // The first run records which shapes the tests give the project's operators. Not when the
  // command sets PYTHONPATH itself: pytest could then not import the plugin, and the tests would
  // fail for a reason of ours.
  fs::path shapes_folder;
  if (request.from_output.empty() && outcome.command.find("PYTHONPATH") == std::string::npos) {
    std::error_code ec;
    shapes_folder = fs::temp_directory_path(ec) / ("kernel-lsp-shapes-" + std::to_string(::getpid()) + "-" +
                                                   std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  }
  for (size_t i = 0; i < tools.size(); ++i) {
    TestRun run;
    run.tool = tools[i];
    if (request.on_progress)
      request.on_progress(run.tool.empty() ? "running the tests" : "running the tests under " + run.tool,
                          static_cast<int>(100 * i / tools.size()));
    auto output = run_once(request, project, *sanitizer, outcome.command, i == 0 ? shapes_folder : fs::path(), run);
    if (i == 0 && !shapes_folder.empty()) {
      outcome.shape_notes = single_shape_notes(read_operator_shapes(shapes_folder));
      std::error_code ec;
      fs::remove_all(shapes_folder, ec);
    }
    if (!output) return output.error();
    if (!*output) {
      outcome.cancelled = true;
      return outcome;
    }
    if (run.exit_code != 0 || run.timed_out) outcome.tests_failed = true;
    run.tests = parse_pytest_summary(**output);
    if (!run.tool.empty()) {
      auto reports = parse_sanitizer_output(**output, run.tool);
      run.reports = reports.size();
      for (const auto& r : reports) run.unplaced += r.line ? 0 : 1;
      std::string context = outcome.command.empty() ? "" : "(while running `" + outcome.command + "`)";
      for (auto& f : sanitizer_findings(reports, context,
                                        [&](const std::string& printed) { return resolve_reported_file(project, printed); }))
        if (seen.insert(f.location.file + ":" + std::to_string(f.location.range.start.line) + ":" + f.message).second) {
          outcome.findings.push_back(std::move(f));
          ++run.findings;
        }
    }
    outcome.runs.push_back(run);
  }
  if (request.on_progress) request.on_progress("done", 100);
  return outcome;
}

}  // namespace kl::runner
