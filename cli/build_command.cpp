#include "cli/build_command.h"

#include <filesystem>
#include <iostream>
#include <memory>

#include "runner/project_bench.h"
#include "runner/project_build.h"

namespace kl::cli {

int run_build(const std::string& project, const std::vector<std::string>& capabilities, unsigned jobs,
              std::ostream& out, std::ostream& err) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(project, ec);
  if (!std::filesystem::is_directory(dir)) {
    err << "kernel-lsp: " << project << ": not a folder (expected a kernel project with build.toml)\n";
    return 2;
  }
  runner::BuildRequest request;
  request.project = dir;
  request.only_capabilities = capabilities;
  request.jobs = jobs;
  request.on_progress = [&](const std::string& what, int percent) {
    err << "[" << percent << "%] " << what << "\n";
  };
  auto report = runner::build_project(request);
  out << runner::format_build_report(report);
  return report.ok ? 0 : 1;
}

int run_bench(const std::string& project, const std::string& json_output, std::ostream& out, std::ostream& err) {
  runner::BenchRequest request;
  std::error_code ec;
  request.project = std::filesystem::absolute(project, ec);
  request.json_output = json_output;
  request.on_output = [&](std::string_view chunk) { out << chunk << std::flush; };
  auto outcome = runner::run_benchmark(request);
  if (!outcome) {
    err << "kernel-lsp bench: " << outcome.error().describe() << "\n";
    return 2;
  }
  return outcome->exit_code == 0 ? 0 : 1;
}

RegisteredCommand add_build_command(CLI::App& app) {
  struct BuildValues {
    std::string project;
    std::vector<std::string> capabilities;
    unsigned jobs = 0;
  };
  auto values = std::make_shared<BuildValues>();
  auto* build_command = app.add_subcommand("build",
                                           "Compile a kernel project for every capability of its build.toml; "
                                           "report registers, shared memory, spills");
  build_command->add_option("project", values->project, "Folder with build.toml")->required();
  build_command->add_option("--capability", values->capabilities, "Only these capabilities (repeatable)");
  build_command->add_option("-j,--jobs", values->jobs, "Parallel compiles (default: one per core)");
  return {build_command, [values] {
            return run_build(values->project, values->capabilities, values->jobs, std::cout, std::cerr);
          }};
}

RegisteredCommand add_bench_command(CLI::App& app) {
  struct BenchValues {
    std::string project, json;
  };
  auto values = std::make_shared<BenchValues>();
  auto* bench_command = app.add_subcommand(
      "bench", "Build the torch extension and run the project's benchmark (needs torch and a GPU)");
  bench_command->add_option("project", values->project, "Folder with build.toml and benchmarks/benchmark.py")
      ->required();
  bench_command->add_option("--json", values->json, "Write the results as JSON to this file");
  return {bench_command, [values] { return run_bench(values->project, values->json, std::cout, std::cerr); }};
}

}  // namespace kl::cli
