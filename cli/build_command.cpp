#include "cli/build_command.h"

#include <filesystem>
#include <iostream>

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

}  // namespace kl::cli
