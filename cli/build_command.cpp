#include "cli/build_command.h"

#include <filesystem>
#include <iostream>
#include <memory>

#include "runner/build_diagnostics.h"
#include "runner/build_report_json.h"
#include "runner/project_build.h"
#include "runner/project_variant.h"
#include "support/interrupt.h"

namespace kl::cli {

namespace {

int run_variant_build(const BuildOptions& options, const std::filesystem::path& dir, std::ostream& out,
                      std::ostream& err) {
  runner::VariantRequest request;
  request.project = dir;
  request.capabilities = options.capabilities;
  request.python = options.python;
  request.cancel = &interrupt_token();
  request.on_output = [&](std::string_view chunk) { err << chunk << std::flush; };
  auto outcome = runner::build_variant(request);
  if (!outcome) {
    err << "kernel-lsp: " << outcome.error().describe() << "\n";
    return 2;
  }
  if (outcome->cancelled) return 130;
  if (outcome->exit_code != 0) {
    err << "kernel-lsp: the build failed (" << options.python << " with torch and nvcc builds the variant)\n";
    return 1;
  }
  out << outcome->folder.string() << "\n";
  return 0;
}

}  // namespace

int run_build(const BuildOptions& options, std::ostream& out, std::ostream& err) {
  const std::string& project = options.project;
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(project, ec);
  if (!std::filesystem::is_directory(dir)) {
    err << "kernel-lsp: " << project << ": not a folder (expected a kernel project with build.toml)\n";
    return 2;
  }
  if (options.variant) return run_variant_build(options, dir, out, err);
  runner::BuildRequest request;
  request.project = dir;
  request.only_capabilities = options.capabilities;
  request.jobs = options.jobs;
  for (const auto& dir : options.torch_include_path) request.torch_include_dirs.emplace_back(dir);
  request.cancel = &interrupt_token();  // Ctrl-C stops every compile (they are not in our process group)
  request.on_progress = [&](const std::string& what, int percent) {
    err << "[" << percent << "%] " << what << "\n";
  };
  auto report = runner::build_project(request);
  // ptxas messages that name only a kernel stay at the top of its source here; the editor,
  // which has the kernels' positions, puts them at the kernel.
  auto messages = runner::build_diagnostics(report, {});
  if (options.format == "json") {
    out << runner::build_report_json(report, messages).dump(1) << "\n";
  } else {
    for (const auto& m : messages)
      out << m.location.file << ":" << m.location.range.start.line + 1 << ":" << m.location.range.start.column + 1
          << ": " << analyzers::severity_name(m.severity) << ": " << m.message << " [" << m.rule_id << "]\n";
    out << runner::format_build_report(report);
  }
  if (report.cancelled) return 130;
  return report.ok ? 0 : 1;
}

RegisteredCommand add_build_command(CLI::App& app) {
  auto values = std::make_shared<BuildOptions>();
  auto* build_command = app.add_subcommand("build",
                                           "Compile a kernel project for every capability of its build.toml; "
                                           "report registers, shared memory, spills");
  build_command->add_option("project", values->project, "Folder with build.toml")->required();
  build_command->add_option("--capability", values->capabilities, "Only these capabilities (repeatable)");
  build_command->add_option("-j,--jobs", values->jobs, "Parallel compiles (default: one per core)");
  build_command->add_option("--format", values->format, "text (default) or json (what the kernel-lsp/build request answers)")
      ->check(CLI::IsMember({"text", "json"}));
  build_command->add_option("--torch-include-path", values->torch_include_path,
                            "PyTorch include folders for sections that depend on torch (default: Torch_DIR, "
                            "TORCH_INSTALL_PREFIX, the torch of python3)");
  build_command->add_flag("--variant", values->variant,
                          "Build the torch extension into build/<variant>/ as kernel-builder does (e.g. "
                          "torch211-cxx11-cu130-x86_64-linux), for the kernels library's get_local_kernel; "
                          "prints the folder. Needs torch with CUDA and nvcc");
  build_command->add_option("--python", values->python, "The Python whose torch --variant builds against (python3)");
  return {build_command, [values] {
            return run_build(*values, std::cout, std::cerr);
          }};
}

}  // namespace kl::cli
