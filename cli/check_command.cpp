#include "cli/check_command.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>

#include "analyzers/frontend/compile_database.h"
#include "analyzers/project/project_locator.h"
#include "cli/analysis_options.h"
#include "cli/report.h"
#include "support/fs_paths.h"

namespace kl::cli {
namespace {

std::string plural(uint32_t n, const char* word, const char* words) {
  return std::to_string(n) + " " + (n == 1 ? word : words);
}

// Under the "kernels:" line, one line per kernel as written: what the access model saw of its
// global memory (analyzers/pipeline/coverage.h says what counts), so that a kernel with no
// finding can be told from a kernel the rules could not judge.
void write_kernel_coverage(std::ostream& out, const analyzers::FileAnalysis& analysis, const std::string& file) {
  for (const analyzers::KernelCoverage& kernel : analysis.coverage) {
    std::string seen = !kernel.has_code                  ? std::string("no code for this configuration")
                       : kernel.global_accesses() == 0 ? std::string("no global accesses")
                           : plural(kernel.global_accesses(), "global access", "global accesses") + " (" +
                                 plural(kernel.global_loads, "load", "loads") + ", " +
                                 plural(kernel.global_stores, "store", "stores") + "), " +
                                 std::to_string(kernel.unjudged) + " unjudged";
    if (kernel.shared_accesses > 0)
      seen += "; " + plural(kernel.shared_accesses, "shared access", "shared accesses") + ", " +
              std::to_string(kernel.shared_unjudged) + " unjudged";
    std::string where;
    if (!kernel.location.file.empty()) {
      where = " (";
      if (kernel.location.file != file) where += display_path(kernel.location.file) + ":";
      where += "line " + std::to_string(kernel.location.range.start.line + 1) + ")";
    }
    std::string name = kernel.name;
    if (name.size() < 22) name.resize(22, ' ');  // the stages' column
    out << "  " << name << " " << seen << where << "\n";
  }
}

}  // namespace

int run_check(const std::string& file, const analyzers::AnalysisSettings& settings, std::ostream& out,
              std::ostream& err) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path path = fs::absolute(file, ec);
  auto text = read_file_text(path);
  if (!text) {
    err << "kernel-lsp: " << file << ": cannot read the file\n";
    return 2;
  }
  analyzers::Analyzer analyzer(settings);
  out << "file:        " << path.string() << " (" << text->size() << " bytes)\n";
  out << "toolkit:     " << analyzer.toolkit_description() << "\n";
  auto toml = analyzers::find_build_toml(path);
  out << "build.toml:  " << (toml ? toml->string() : std::string("none found above the file")) << "\n";
  auto database = analyzers::find_compile_database(path);
  out << "flags from:  " << (database ? database->string() : std::string("no compile_commands.json")) << "\n";

  auto analysis = analyzer.analyze_source(path, *text);
  out << "archs:       ";
  for (size_t i = 0; i < analysis.archs.archs.size(); ++i) out << (i ? ", " : "") << analysis.archs.archs[i].text();
  out << "  (from " << analysis.archs.origin << ")\n";
  for (const auto& header : analysis.missing_headers) out << "missing:     #include <" << header << "> (skipped)\n";
  out << "kernels:     " << analysis.facts.kernels.size() << ", launches: " << analysis.facts.launches.size()
      << ", feature uses: " << analysis.facts.feature_uses.size()
      << (analysis.facts.arch_dependent ? " (code tests __CUDA_ARCH__: parsed per arch)" : "") << "\n";
  write_kernel_coverage(out, analysis, path.lexically_normal().string());
  out << "stages:\n";
  double total = 0;
  for (const auto& stage : analysis.timings) {
    char line[128];
    std::snprintf(line, sizeof line, "  %-22s %9.1f ms\n", stage.stage.c_str(), stage.milliseconds);
    out << line;
    total += stage.milliseconds;
  }
  char line[128];
  std::snprintf(line, sizeof line, "  %-22s %9.1f ms\n", "total", total);
  out << line;
  LintReport report;
  report.files.push_back({path.string(), *text, analysis.findings});
  report.files_analysed = 1;
  report.seconds = total / 1000.0;
  out << "findings:\n";
  write_text_report(report, out, false);
  return 0;
}

RegisteredCommand add_check_command(CLI::App& app) {
  struct CheckValues {
    std::string file;
    AnalysisOptionValues analysis;
  };
  auto values = std::make_shared<CheckValues>();
  auto* check_command =
      app.add_subcommand("check", "Run the whole pipeline on one file and print each stage's time");
  check_command->add_option("file", values->file, "A .cu or .cuh file")->required();
  add_analysis_options(*check_command, values->analysis);
  return {check_command, [values] {
            auto settings = analysis_settings(values->analysis, std::cerr);
            if (!settings) return 2;
            return run_check(values->file, *settings, std::cout, std::cerr);
          }};
}

}  // namespace kl::cli
