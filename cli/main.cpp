// kernel-lsp: the language server and command-line tool for CUDA kernels written for PyTorch.
// With no subcommand (or --stdio, --listen, --clientProcessId) it serves LSP; otherwise it runs
// one of the subcommands below. Argument parsing is CLI11's; each subcommand lives in its file.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <iostream>

#include "analyzers/isolation/analysis_worker.h"
#include "cli/build_command.h"
#include "cli/check_command.h"
#include "cli/lint_command.h"
#include "cli/subcommands.h"

#include "lsp/server_main.h"

namespace {

bool parse_arch_list(const std::string& text, std::vector<kl::analyzers::Capability>& out, std::string& error) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) {
      auto cap = kl::analyzers::parse_capability(item);
      if (!cap) {
        error = "`" + item + "` is not a compute capability (expected e.g. 8.0, 9.0a)";
        return false;
      }
      out.push_back(*cap);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return true;
}

bool is_server_invocation(int argc, char** argv) {
  if (argc == 1) return true;
  std::string first = argv[1];
  return first == "serve" || first == "--stdio" || first.rfind("--listen", 0) == 0 ||
         first.rfind("--clientProcessId", 0) == 0 || first.rfind("--log", 0) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Not a user command: the analysis worker a lint run or the server starts (isolated_analyzer.h).
  if (argc == 2 && std::string(argv[1]) == "__analysis-worker")
    return kl::analyzers::run_analysis_worker(kl::analyzers::kWorkerChannelFd, kl::analyzers::kWorkerReportFd);
  if (is_server_invocation(argc, argv)) {
    kl::lsp::ServerOptions server_options;
    std::string error;
    int skip = (argc > 1 && std::string(argv[1]) == "serve") ? 1 : 0;
    std::vector<char*> server_argv;
    server_argv.push_back(argv[0]);
    for (int i = 1 + skip; i < argc; ++i) server_argv.push_back(argv[i]);
    int parsed = kl::lsp::parse_server_args(static_cast<int>(server_argv.size()), server_argv.data(), server_options, error);
    if (parsed == 1) {  // --help
      std::cout << error << "\n";
      return 0;
    }
    if (parsed != 0) {
      std::cerr << "kernel-lsp: " << error << "\n";
      return 2;
    }
    return kl::lsp::run_server(server_options);
  }

  CLI::App app{"kernel-lsp: language server and lint for CUDA kernels written for PyTorch"};
  app.set_version_flag("--version", std::string("kernel-lsp ") + KERNEL_LSP_VERSION);
  app.require_subcommand(1);

  // Shared analysis options
  std::string cuda_path, archs_text;
  std::vector<std::string> extra_flags;
  auto add_analysis_options = [&](CLI::App* command) {
    command->add_option("--cuda-path", cuda_path, "CUDA toolkit folder (else CUDA_PATH, CUDA_HOME, nvcc on PATH, /usr/local/cuda)");
    command->add_option("--arch", archs_text, "Comma-separated capabilities that replace build.toml's, e.g. 8.0,9.0a");
    command->add_option("--extra-flag", extra_flags, "Extra clang flag for parsing (repeatable), e.g. -I/path");
  };

  kl::cli::LintOptions lint;
  std::string format = "text", severity = "info", color = "auto";
  auto* lint_command = app.add_subcommand("lint", "Lint .cu/.cuh files and build.toml (files or folders)");
  lint_command->add_option("paths", lint.paths, "Files or folders")->required();
  lint_command->add_option("--format", format, "text | json | sarif | github")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  lint_command->add_option("--severity", severity, "Report findings at or above: error | warning | info")
      ->check(CLI::IsMember({"error", "warning", "info"}));
  lint_command->add_option("-j,--jobs", lint.jobs, "Files analysed in parallel (default: one per core)");
  lint_command->add_option("--color", color, "auto | always | never")->check(CLI::IsMember({"auto", "always", "never"}));
  double timeout_seconds = 300;
  lint_command->add_option("--timeout", timeout_seconds, "Seconds one file's analysis may take before it is stopped and reported (default 300)")
      ->check(CLI::PositiveNumber);
  lint_command->add_flag("--no-isolation", lint.in_process,
                         "Analyse in this process instead of worker processes (for debugging: a crash then ends the run)");
  add_analysis_options(lint_command);

  std::string check_file;
  auto* check_command = app.add_subcommand("check", "Run the whole pipeline on one file and print each stage's time");
  check_command->add_option("file", check_file, "A .cu or .cuh file")->required();
  add_analysis_options(check_command);

  std::string project_dir, bench_json;
  std::vector<std::string> build_caps;
  unsigned build_jobs = 0;
  auto* build_command = app.add_subcommand("build", "Compile a kernel project for every capability of its build.toml; report registers, shared memory, spills");
  build_command->add_option("project", project_dir, "Folder with build.toml")->required();
  build_command->add_option("--capability", build_caps, "Only these capabilities (repeatable)");
  build_command->add_option("-j,--jobs", build_jobs, "Parallel compiles (default: one per core)");
  auto* bench_command = app.add_subcommand("bench", "Build the torch extension and run the project's benchmark (needs torch and a GPU)");
  bench_command->add_option("project", project_dir, "Folder with build.toml and benchmarks/benchmark.py")->required();
  bench_command->add_option("--json", bench_json, "Write the results as JSON to this file");

  kl::cli::register_subcommands(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  kl::analyzers::AnalysisSettings settings;
  if (!cuda_path.empty()) settings.cuda_path = cuda_path;
  settings.extra_flags = extra_flags;
  if (!archs_text.empty()) {
    std::string error;
    if (!parse_arch_list(archs_text, settings.arch_override, error)) {
      std::cerr << "kernel-lsp: --arch: " << error << "\n";
      return 2;
    }
  }

  if (lint_command->parsed()) {
    lint.settings = settings;
    lint.timeout = std::chrono::milliseconds(static_cast<int64_t>(timeout_seconds * 1000));
    lint.format = format == "json" ? kl::cli::ReportFormat::Json
                  : format == "sarif" ? kl::cli::ReportFormat::Sarif
                  : format == "github" ? kl::cli::ReportFormat::Github
                                       : kl::cli::ReportFormat::Text;
    kl::analyzers::parse_severity(severity, lint.threshold);
    lint.color = color == "always" || (color == "auto" && isatty(STDOUT_FILENO) && lint.format == kl::cli::ReportFormat::Text);
    return kl::cli::run_lint(lint, std::cout, std::cerr);
  }
  if (check_command->parsed()) return kl::cli::run_check(check_file, settings, std::cout, std::cerr);
  if (build_command->parsed()) return kl::cli::run_build(project_dir, build_caps, build_jobs, std::cout, std::cerr);
  if (bench_command->parsed()) return kl::cli::run_bench(project_dir, bench_json, std::cout, std::cerr);
  return kl::cli::run_registered_subcommand(app);
}
