#include "cli/analysis_options.h"

#include <ostream>

namespace kl::cli {
namespace {

// "8.0,9.0a" → capabilities; empty items are skipped, the first bad one is the error.
bool parse_arch_list(const std::string& text, std::vector<analyzers::Capability>& out, std::string& error) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) {
      auto cap = analyzers::parse_capability(item);
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

}  // namespace

void add_analysis_options(CLI::App& command, AnalysisOptionValues& values) {
  command.add_option("--cuda-path", values.cuda_path,
                     "CUDA toolkit folder (else CUDA_PATH, CUDA_HOME, nvcc on PATH, /usr/local/cuda)");
  command.add_option("--arch", values.archs_text,
                     "Comma-separated capabilities that replace build.toml's, e.g. 8.0,9.0a");
  // One value per occurrence: a vector option would otherwise swallow the file names after it
  // (`--extra-flag -Iinc a.cu b.cu` took a.cu and b.cu for flags).
  command.add_option("--extra-flag", values.extra_flags,
                     "Extra clang flag for parsing (repeat the option for each), e.g. -I/path")
      ->allow_extra_args(false);
  command.add_option("--torch-include-path", values.torch_include_path,
                     "PyTorch include folder (repeat the option for each); else found (Torch_DIR, python3's "
                     "torch, libtorch-dev) or kernel-lsp's stand-in")
      ->allow_extra_args(false);
  command.add_option("--cutlass-path", values.cutlass_path,
                     "CUTLASS checkout or include folder (repeat the option for each); else CUTLASS_PATH, "
                     "CUTLASS_DIR, CUTLASS_HOME")
      ->allow_extra_args(false);
  command.add_flag("--no-shared-pch", values.no_shared_pch,
                   "Parse CUDA's headers with every file instead of loading them precompiled (same findings, slower; "
                   "the precompiled headers live in KERNEL_LSP_PCH_DIR, else ~/.cache/kernel-lsp/pch)");
}

std::optional<analyzers::AnalysisSettings> analysis_settings(const AnalysisOptionValues& values,
                                                             std::ostream& err) {
  analyzers::AnalysisSettings settings;
  if (!values.cuda_path.empty()) settings.cuda_path = values.cuda_path;
  settings.extra_flags = values.extra_flags;
  for (const std::string& dir : values.torch_include_path) settings.torch_include_path.emplace_back(dir);
  for (const std::string& dir : values.cutlass_path) settings.cutlass_path.emplace_back(dir);
  settings.shared_pch = !values.no_shared_pch;
  if (!values.archs_text.empty()) {
    std::string error;
    if (!parse_arch_list(values.archs_text, settings.arch_override, error)) {
      err << "kernel-lsp: --arch: " << error << "\n";
      return std::nullopt;
    }
  }
  return settings;
}

}  // namespace kl::cli
