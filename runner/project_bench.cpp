#include "runner/project_bench.h"

#include <algorithm>
#include <cstdlib>

#include "runner/bench_report.h"
#include "support/fs_paths.h"
#include "support/process.h"
#include "support/resources.h"

namespace kl::runner {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view kControlPrefix = "::kernel-lsp:: ";
constexpr std::string_view kResultsBegin = "::kernel-lsp:: results begin";
constexpr std::string_view kResultsEnd = "::kernel-lsp:: results end";  // may end the JSON's last line
constexpr size_t kMaxArchiveBytes = 64u << 20;                          // a project folder, not a data set

int stage_percent(std::string_view stage) {
  if (stage == kStageChecking) return 0;
  if (stage == kStageBuilding) return 10;
  if (stage == kStageRunning) return 40;
  if (stage == kStageReporting) return 95;
  return -1;
}

void report_progress(const BenchRequest& request, std::string_view stage) {
  int percent = stage_percent(stage);
  if (request.on_progress && percent >= 0) request.on_progress(std::string(stage), percent);
}

bool stop_requested(const BenchRequest& request) {
  return (request.cancel && request.cancel->is_cancelled()) || (request.should_stop && request.should_stop());
}

// The last `max_lines` lines of `text` (at most ~6000 characters), for a failure message.
std::string tail_of(std::string_view text, size_t max_lines = 40) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  if (text.empty()) return "(it printed nothing)";
  size_t start = text.size();
  for (size_t lines = 0; lines < max_lines && start > 0 && text.size() - start < 6000; ++lines) {
    size_t newline = text.rfind('\n', start - 1);
    start = newline == std::string_view::npos ? 0 : newline;
  }
  if (text[start] == '\n') ++start;
  return std::string(text.substr(start));
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// ---- this machine -------------------------------------------------------------------------

// What runner/scripts/probe_machine.py found with the request's python.
struct MachineProbe {
  enum class Verdict { kReady, kNoPython, kNoTorch, kNoGpu, kFailed } verdict = Verdict::kFailed;
  std::string detail;           // for people
  json facts = json::object();  // the probe's JSON (machine facts, name, build_caps)
};

MachineProbe probe_local(const BenchRequest& request, const fs::path& project) {
  MachineProbe probe;
  if (find_on_path(request.python).empty() && !fs::exists(request.python)) {
    probe.verdict = MachineProbe::Verdict::kNoPython;
    probe.detail = "there is no " + request.python + " on this machine";
    return probe;
  }
  auto script = find_resource(resources::kProbeMachine);
  if (!script) {
    probe.detail = std::string(resources::kProbeMachine) + " is not installed with kernel-lsp";
    return probe;
  }
  ProcessRequest run{request.python, {script->string(), (project / "build.toml").string()}};
  run.timeout = std::chrono::minutes(2);
  run.should_stop = [&] { return stop_requested(request); };
  auto ran = run_process(run);
  if (!ran) {
    probe.detail = ran.error().describe();
    return probe;
  }
  std::string_view out = ran->stdout_text;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.remove_suffix(1);
  size_t line = out.rfind('\n');
  json facts = json::parse(out.substr(line == std::string_view::npos ? 0 : line + 1), nullptr, false);
  if (facts.is_object()) probe.facts = facts;
  std::string problem = probe.facts.value("problem", std::string());
  switch (ran->exit_code) {
    case 0:
      probe.verdict = MachineProbe::Verdict::kReady;
      break;
    case 3:
      probe.verdict = MachineProbe::Verdict::kNoTorch;
      break;
    case 4:
      probe.verdict = MachineProbe::Verdict::kNoGpu;
      break;
    default:
      problem = request.python + " failed to probe the machine: " + tail_of(ran->stderr_text, 8);
  }
  probe.detail = problem.empty() ? "the probe found no problem" : problem;
  return probe;
}

Error no_machine_error(const MachineProbe& probe, const fs::path& project) {
  return make_error(
      "cannot benchmark " + project.string() + " here: " + probe.detail +
      ".\nA benchmark needs either a CUDA GPU with torch on this machine, or a runner command that "
      "runs it on one: pass --runner CMD, set KERNEL_LSP_BENCH_RUNNER, or set the editor setting "
      "benchRunner (VS Code: kernelLsp.benchRunner) (for example 'ssh gpu-box sh'; see docs/BENCH_RUNNER.md).");
}

// The probe's facts that describe the machine (what the report shows when the results lack it).
json machine_of(const json& facts) {
  json machine = json::object();
  for (const auto& [key, value] : facts.items())
    if (key != "ready" && key != "problem" && key != "name" && key != "build_caps") machine[key] = value;
  return machine;
}

// build.toml's [general] name as the probe read it (the builder's output folder), else the folder's.
std::string project_name(const json& facts, const fs::path& project) {
  std::string name = facts.value("name", std::string());
  return name.empty() ? project.filename().string() : name;
}

// ---- the outcome --------------------------------------------------------------------------

struct RunContext {
  fs::path project, report_dir;
  std::string where_for_people;
  BenchConvention convention = BenchConvention::kKernelLsp;
};

// Rows where our kernel has an error: it failed, or did not match its reference.
int failed_workloads(const BenchResults& results) {
  int failed = 0;
  for (const BenchRow& row : results.rows)
    if (row.errors.count("ours")) ++failed;
  return failed;
}

// Parses the raw results, writes --json and the report; failures become the outcome's.
void finish_run(BenchOutcome& outcome, const std::string& raw, const json& probe_facts,
                const BenchRequest& request, const RunContext& context) {
  auto parsed = parse_bench_results(raw);
  if (!parsed) {
    outcome.exit_code = 1;
    outcome.failure = "the benchmark's results cannot be read: " + parsed.error().describe();
    return;
  }
  if (parsed->machine.empty()) parsed->machine = machine_of(probe_facts);
  outcome.results = *parsed;
  outcome.convention = context.convention;
  outcome.failed_workloads = failed_workloads(*parsed);
  if (!request.json_output.empty() && !write_file_atomically(request.json_output, raw)) {
    outcome.exit_code = 1;
    outcome.failure = "cannot write " + request.json_output.string();
    return;
  }
  report_progress(request, kStageReporting);
  ReportRequest report{context.report_dir, project_name(probe_facts, context.project),
                       context.where_for_people, raw};
  report.pythons = {request.python};
  if (request.python != "/usr/bin/python3") report.pythons.push_back("/usr/bin/python3");
  auto written = write_report(*outcome.results, report);
  if (!written) {
    outcome.exit_code = 1;
    outcome.failure = "the report could not be written: " + written.error().describe();
    return;
  }
  outcome.report = *written;
  if (request.on_progress) request.on_progress(kStageReporting, 100);
}

BenchOutcome fail(BenchOutcome& outcome, int exit_code, const std::string& what) {
  outcome.exit_code = exit_code == 0 ? 1 : exit_code;
  outcome.failure = what + "; the last lines of its output:\n" + tail_of(outcome.output);
  return std::move(outcome);
}

// ---- local runs ---------------------------------------------------------------------------

// The local builder's command for the project, into `out`: a package for kernel-lsp's convention
// (imported from <out>/<name>/), kernel-builder's <out>/<variant>/ for the kernels convention.
ProcessRequest local_build(const BenchRequest& request, const MachineProbe& probe, const RunContext& context,
                           const fs::path& builder, const fs::path& out) {
  ProcessRequest build{request.python, {builder.string(), context.project.string(), "--out", out.string()}};
  if (context.convention == BenchConvention::kKernels) build.args.insert(build.args.end(), {"--layout", "variant"});
  std::string caps = probe.facts.value("build_caps", std::string());
  const char* caps_override = std::getenv("KERNELS_CUDA_CAPS");
  if (!caps.empty() && !(caps_override && *caps_override)) build.args.insert(build.args.end(), {"--caps", caps});
  build.timeout = std::chrono::minutes(30);
  return build;
}

// The benchmark's command: the project's own script, or the kernels convention's driver.
Result<ProcessRequest> local_benchmark(const BenchRequest& request, const RunContext& context, const fs::path& out,
                                       const std::string& package, const fs::path& results_file) {
  if (context.convention == BenchConvention::kKernels) {
    auto driver = find_resource(resources::kRunKernelsBenchmarks);
    if (!driver) return make_error(std::string(resources::kRunKernelsBenchmarks) + " is not installed with kernel-lsp");
    std::string python_name = package;
    std::replace(python_name.begin(), python_name.end(), '-', '_');
    return ProcessRequest{request.python,
                          {driver->string(), context.project.string(), "--kernel", out.string(), "--package",
                           python_name, "--json", results_file.string()}};
  }
  ProcessRequest bench{
      request.python,
      {(context.project / "benchmarks" / "benchmark.py").string(), "--json", results_file.string()}};
  bench.extra_environment["PYTHONPATH"] = prepended_to_environment("PYTHONPATH", (out / package).string(), ':');
  return bench;
}

Result<BenchOutcome> run_local(const BenchRequest& request, const MachineProbe& probe,
                               const RunContext& context) {
  auto builder = find_resource(resources::kBuildLocal);
  if (!builder)
    return make_error("the local builder (kernels/tools/build_local.py) is not installed with kernel-lsp");
  std::string package = project_name(probe.facts, context.project);
  fs::path out;
  if (context.convention == BenchConvention::kKernels)
    out = request.build_dir.empty() ? context.project / "build" : absolute_normal(request.build_dir) / package;
  else
    out = request.build_dir.empty() ? context.project.parent_path() / "build" : absolute_normal(request.build_dir);
  BenchOutcome outcome;
  outcome.where = "local";
  auto forward = [&](std::string_view chunk) {
    outcome.output.append(chunk);
    if (request.on_output) request.on_output(chunk);
  };
  auto should_stop = [&] { return stop_requested(request); };

  report_progress(request, kStageBuilding);
  ProcessRequest build = local_build(request, probe, context, *builder, out);
  build.on_output = forward;
  build.should_stop = should_stop;
  auto built = run_process(build);
  if (!built) return built.error();
  if (built->stopped) return fail(outcome, 130, "stopped while building the extension");
  if (built->exit_code != 0) return fail(outcome, built->exit_code, "building the extension failed");

  report_progress(request, kStageRunning);
  std::error_code made;
  fs::create_directories(out, made);  // the builder made it; a failure shows when the results are read
  fs::path results_file = temporary_sibling(out / (package + "-bench-results.json"));
  auto bench = local_benchmark(request, context, out, package, results_file);
  if (!bench) return bench.error();
  bench->timeout = std::chrono::hours(2);
  bench->on_output = forward;
  bench->should_stop = should_stop;
  auto ran = run_process(*bench);
  auto raw = read_file_text(results_file);
  std::error_code ec;
  fs::remove(results_file, ec);
  if (!ran) return ran.error();
  if (ran->stopped) return fail(outcome, 130, "stopped while running the benchmark");
  if (ran->exit_code != 0) return fail(outcome, ran->exit_code, "the benchmark failed");
  if (!raw || raw->empty()) return fail(outcome, 1, "the benchmark wrote no results");
  finish_run(outcome, *raw, probe.facts, request, context);
  return outcome;
}

// ---- runner runs --------------------------------------------------------------------------

// Splits a runner's output into lines: control lines drive progress and record the machine,
// the results block is kept out of the stream, everything else is passed on.
class RunnerStream {
 public:
  explicit RunnerStream(const BenchRequest& request) : request_(request) {}

  void feed(std::string_view chunk) {
    pending_.append(chunk);
    size_t start = 0;
    for (size_t end; (end = pending_.find('\n', start)) != std::string::npos; start = end + 1)
      line(std::string_view(pending_).substr(start, end + 1 - start));
    pending_.erase(0, start);
    if (pending_.size() > (64u << 10) && !in_results_) flush();
  }
  void flush() {
    if (!pending_.empty()) line(pending_);
    pending_.clear();
  }
  const std::string& shown() const { return shown_; }
  const json& machine() const { return machine_; }

 private:
  void line(std::string_view text) {
    std::string_view bare = text;
    while (!bare.empty() && (bare.back() == '\n' || bare.back() == '\r')) bare.remove_suffix(1);
    if (in_results_) {
      if (bare.ends_with(kResultsEnd)) in_results_ = false;
      return;
    }
    if (bare.starts_with(kControlPrefix)) {
      std::string_view control = bare.substr(kControlPrefix.size());
      if (bare == kResultsBegin)
        in_results_ = true;
      else if (control.starts_with("stage "))
        stage(control.substr(6));
      else if (control.starts_with("machine ")) {
        json facts = json::parse(control.substr(8), nullptr, false);
        if (facts.is_object()) machine_ = facts;
      }
      return;
    }
    shown_.append(text);
    if (request_.on_output) request_.on_output(text);
  }

  // kernel-lsp has reported "checking the machine" before the runner starts: not twice.
  void stage(std::string_view name) {
    if (name == last_stage_) return;
    last_stage_ = name;
    report_progress(request_, name);
  }

  const BenchRequest& request_;
  std::string pending_, shown_, last_stage_ = kStageChecking;
  bool in_results_ = false;
  json machine_ = json::object();
};

// The system's tar, gzip'd to a string: `args` are its -C folders and names; __pycache__ and .git
// are left out.
Result<std::string> tar_gz(const std::vector<std::string>& args, const std::string& what) {
  std::vector<std::string> full = {"-czf", "-", "--exclude=__pycache__", "--exclude=.git"};
  full.insert(full.end(), args.begin(), args.end());
  ProcessRequest tar{"tar", full};
  tar.timeout = std::chrono::minutes(2);
  auto packed = run_process(tar);
  if (!packed) return make_error("cannot pack " + what + ": " + packed.error().describe());
  if (packed->exit_code != 0)
    return make_error("cannot pack " + what + ": tar: " + tail_of(packed->stderr_text, 8));
  if (packed->stdout_text.size() > kMaxArchiveBytes)
    return make_error(what + " packs to " + std::to_string(packed->stdout_text.size() >> 20) +
                      " MiB, more than a runner script should carry (64 MiB): move large files out of it");
  return packed->stdout_text;
}

std::string base64_lines(const std::string& bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve(bytes.size() * 4 / 3 + bytes.size() / 57 + 8);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 2]);
    out += kDigits[(n >> 18) & 63];
    out += kDigits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
    if ((i / 3 + 1) % 19 == 0 && i + 3 < bytes.size()) out += '\n';  // 76 characters a line
  }
  return out;
}

void replace_placeholder(std::string& text, const std::string& placeholder, const std::string& value) {
  size_t at = text.find(placeholder);
  if (at != std::string::npos) text.replace(at, placeholder.size(), value);
}

Result<BenchOutcome> run_on_runner(const BenchRequest& request, const RunContext& context) {
  auto script = runner_script(context.project, context.report_dir, context.convention);
  if (!script) return script.error();
  BenchOutcome outcome;
  outcome.where = "runner";
  RunnerStream stream(request);
  ProcessRequest run{"/bin/sh", {"-c", request.runner_command}};
  run.stdin_text = std::move(*script);
  run.timeout = std::chrono::hours(4);
  run.on_output = [&](std::string_view chunk) { stream.feed(chunk); };
  run.should_stop = [&] { return stop_requested(request); };
  auto ran = run_process(run);
  if (!ran)
    return make_error("cannot start the runner `" + request.runner_command + "`: " + ran.error().describe());
  stream.flush();
  outcome.output = stream.shown();
  std::string who = "the runner `" + request.runner_command + "`";
  if (ran->stopped) return fail(outcome, 130, who + " was stopped");
  if (ran->timed_out) return fail(outcome, 124, who + " ran for more than 4 hours and was stopped");
  auto raw = results_between_markers(ran->stdout_text);
  if (!raw) raw = results_between_markers(ran->stderr_text);  // a runner that prints all to stderr
  if (ran->exit_code != 0)
    return fail(outcome, ran->exit_code, who + " exited with " + std::to_string(ran->exit_code));
  if (!raw) return fail(outcome, 1, who + " printed no results between the markers");
  finish_run(outcome, *raw, stream.machine(), request, context);
  return outcome;
}

}  // namespace

std::optional<std::string> results_between_markers(std::string_view output) {
  std::optional<size_t> begin;
  std::optional<std::string> found;
  for (size_t start = 0; start < output.size();) {
    size_t end = output.find('\n', start);
    size_t next = end == std::string_view::npos ? output.size() : end + 1;
    std::string_view line = output.substr(start, next - start);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' '))
      line.remove_suffix(1);
    if (line == kResultsBegin) {
      begin = next;
    } else if (begin && line.ends_with(kResultsEnd)) {
      // The end marker may follow the JSON on its last line (a file printed without a newline).
      size_t json_end = start + line.size() - kResultsEnd.size();
      found = std::string(output.substr(*begin, json_end - *begin));
      begin.reset();
    }
    start = next;
  }
  return found;
}

Result<std::string> runner_script(const fs::path& project, const fs::path& report_dir,
                                  BenchConvention convention) {
  auto template_path = find_resource(resources::kBenchOnRunner);
  auto builder = find_resource(resources::kBuildLocal);
  if (!template_path || !builder)
    return make_error("kernel-lsp's runner files (runner/scripts/, kernels/tools/, kernels/common/) are not installed");
  auto text = read_file_text(*template_path);
  if (!text) return make_error("cannot read " + template_path->string());
  // The files the script needs, under the folder that holds kernel-lsp's resources, with the
  // same relative paths there (build_local.py finds kernels/common/ and analyzers/data/ by them).
  fs::path resources = builder->parent_path().parent_path().parent_path();
  std::vector<std::string> files = {resources::kBuildLocal,    resources::kVariantLayout,
                                    resources::kKernelsCommon, resources::kBuilderDefaults,
                                    resources::kProbeMachine,  resources::kRunKernelsBenchmarks};
  for (const std::string& file : files)
    if (!fs::exists(resources / file))
      return make_error("kernel-lsp's runner files are incomplete: no " + (resources / file).string());
  std::vector<std::string> tools_args = {"-C", resources.string()};
  tools_args.insert(tools_args.end(), files.begin(), files.end());
  auto tools = tar_gz(tools_args, "kernel-lsp's builder");
  if (!tools) return tools.error();
  // The project without its reports and build outputs (kernel-builder's build/ can be large).
  std::vector<std::string> project_args = {"--exclude=./build"};
  fs::path relative_reports = absolute_normal(report_dir).lexically_relative(absolute_normal(project));
  if (!relative_reports.empty() && *relative_reports.begin() != "..")
    project_args.push_back("--exclude=./" + relative_reports.generic_string());
  project_args.insert(project_args.end(), {"-C", project.string(), "."});
  auto packed = tar_gz(project_args, "the project folder " + project.string());
  if (!packed) return packed.error();
  replace_placeholder(*text, "@KL_PROJECT_NAME@", shell_quote(project.filename().string()));
  replace_placeholder(*text, "@KL_CONVENTION@", std::string(bench_convention_name(convention)));
  replace_placeholder(*text, "@KL_TOOLS_PAYLOAD@", base64_lines(*tools));
  replace_placeholder(*text, "@KL_PROJECT_PAYLOAD@", base64_lines(*packed));
  return *text;
}

Result<BenchOutcome> run_benchmark(const BenchRequest& request) {
  RunContext context;
  context.project = absolute_normal(request.project);
  if (!fs::is_regular_file(context.project / "build.toml"))
    return make_error("no build.toml in " + context.project.string() + ": not a kernel project folder");
  auto convention = choose_bench_convention(context.project, request.convention);
  if (!convention) return convention.error();
  context.convention = *convention;
  context.report_dir = request.report_dir.empty() ? context.project / "benchmarks" / "reports"
                                                  : absolute_normal(request.report_dir);
  report_progress(request, kStageChecking);
  if (request.force_runner) {
    if (request.runner_command.empty())
      return make_error(
          "a remote run needs a runner command: --runner CMD, KERNEL_LSP_BENCH_RUNNER or the editor "
          "setting benchRunner (VS Code: kernelLsp.benchRunner) (see docs/BENCH_RUNNER.md)");
    context.where_for_people = "through the runner `" + request.runner_command + "`";
    return run_on_runner(request, context);
  }
  MachineProbe probe = probe_local(request, context.project);
  if (probe.verdict == MachineProbe::Verdict::kReady) {
    context.where_for_people = "locally, with " + request.python;
    return run_local(request, probe, context);
  }
  if (request.runner_command.empty()) return no_machine_error(probe, context.project);
  if (request.on_output)
    request.on_output("kernel-lsp bench: " + probe.detail + " here; running through `" +
                      request.runner_command + "`\n");
  context.where_for_people = "through the runner `" + request.runner_command + "`";
  return run_on_runner(request, context);
}

}  // namespace kl::runner
