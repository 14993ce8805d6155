// libFuzzer target for the analysis itself: a mutated CUDA source goes through the
// whole pipeline a `kernel-lsp lint` of one file runs, in process: toolkit headers, the clang
// parse of the device side for two arches (one plain, one arch-specific, so `__CUDA_ARCH__`
// branches differ), the model (feature uses, kernels, launches, the access interpreter) and
// every rule. Seeds: every .cu under tests/fixtures. Built only with -DKERNEL_LSP_FUZZ=ON and
// -DKERNEL_LSP_SANITIZE=ON (tools/build_sanitized_binary.sh); run by tools/fuzz_analysis.sh.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyzers/pipeline/analysis.h"

namespace {

kl::analyzers::Analyzer& analyzer() {
  static kl::analyzers::Analyzer* instance = [] {
    kl::analyzers::AnalysisSettings settings;
    settings.arch_override = {*kl::analyzers::parse_capability("8.0"), *kl::analyzers::parse_capability("9.0a")};
    settings.use_compile_commands = false;
    return new kl::analyzers::Analyzer(settings);  // never destroyed: libFuzzer exits without unwinding
  }();
  return *instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // A file name with no build.toml above it: the arch override decides, nothing is read from disk.
  analyzer().analyze_source("/nonexistent/kernel-lsp-fuzz/input.cu", text);
  return 0;
}
