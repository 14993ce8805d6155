// arch-mismatch's guard fix gives the archs that lack a feature code of their own: a warp-shuffle
// tree for a warp reduction (compiled here with nvcc for an arch with the feature and one
// without, and the lint is clean afterwards), and a visible TODO with a #warning where nothing
// mechanical exists.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzers/data/feature_table.h"
#include "analyzers/pipeline/analysis.h"
#include "analyzers/rules/arch_fallback.h"
#include "support/line_index.h"
#include "support/process.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;
namespace fs = std::filesystem;

namespace {

const Feature& feature(const char* id) {
  const Feature* f = FeatureTable::builtin().find(id);
  REQUIRE(f);
  return *f;
}

// The text after applying `fix` (edits at distinct positions, applied from the last).
std::string applied(std::string text, const Fix& fix) {
  std::vector<TextEdit> edits = fix.edits;
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) {
    return std::tie(a.range.start.line, a.range.start.column) > std::tie(b.range.start.line, b.range.start.column);
  });
  for (const TextEdit& e : edits) {
    kl::LineIndex lines(text);
    size_t start = lines.offset_of(e.range.start.line, e.range.start.column);
    size_t end = lines.offset_of(e.range.end.line, e.range.end.column);
    text.replace(start, end - start, e.new_text);
  }
  return text;
}

fs::path find_nvcc() {
  for (const fs::path candidate : {fs::path("/usr/local/cuda/bin/nvcc"), fs::path(KL_NVCC)})
    if (!candidate.empty() && fs::exists(candidate)) return candidate;
  return kl::find_on_path("nvcc");
}

}  // namespace

TEST_CASE("a warp reduction's fallback is the shuffle tree, for each operation") {
  ArchFallback add = arch_fallback(feature("__reduce_*_sync"), "    acc = __reduce_add_sync(0xffffffffu, acc);");
  CHECK(add.working);
  CHECK(add.lines == "    for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, offset);\n");
  ArchFallback max = arch_fallback(feature("__reduce_*_sync"), "  unsigned m = __reduce_max_sync(0xffffffff, v);");
  CHECK(max.working);
  CHECK(max.lines == "  unsigned m = v;\n  for (int offset = 16; offset > 0; offset >>= 1) m = max(m, __shfl_xor_sync(0xffffffff, m, offset));\n");
  // A partial mask or a target that is not a variable: nothing mechanical, a TODO that stays loud.
  ArchFallback partial = arch_fallback(feature("__reduce_*_sync"), "  s = __reduce_add_sync(__activemask(), v);");
  CHECK_FALSE(partial.working);
  CHECK(partial.lines.find("TODO") != std::string::npos);
  CHECK(partial.lines.find("#warning") != std::string::npos);
}

TEST_CASE("the guard fix with its fallback compiles for both archs and leaves the lint clean") {
  const std::string source =
      "__global__ void row_sum(const unsigned* in, unsigned* out) {\n"
      "  unsigned acc = in[blockIdx.x * 32 + threadIdx.x];\n"
      "  acc = __reduce_add_sync(0xffffffffu, acc);\n"
      "  if (threadIdx.x == 0) out[blockIdx.x] = acc;\n"
      "}\n";
  Analyzer analyzer(settings_for_archs({"7.5", "8.0"}));
  fs::path file = scratch_file("kl_arch_fallback_test", "row_sum.cu");
  FileAnalysis before = analyzer.analyze_source(file, source);
  auto mismatches = findings_of_rule(before, "arch-mismatch");
  REQUIRE(mismatches.size() == 1);
  REQUIRE_FALSE(mismatches[0]->fixes.empty());
  const Fix& guard = mismatches[0]->fixes.front();
  CHECK(guard.title == "Guard with #if __CUDA_ARCH__ >= 800 and a warp-shuffle fallback for the other archs");
  std::string fixed = applied(source, guard);
  CHECK(fixed.find("#else\n  for (int offset = 16;") != std::string::npos);
  CHECK(findings_of_rule(analyzer.analyze_source(file, fixed), "arch-mismatch").empty());

  const fs::path nvcc = find_nvcc();
  if (nvcc.empty()) {
    WARN("SKIPPED: nvcc not found: the fixed kernel was NOT compiled");
    return;
  }
  fs::path compiled = file.parent_path() / "row_sum_fixed.cu";
  std::ofstream(compiled) << fixed;
  kl::ProcessRequest request;
  request.program = nvcc;
  request.args = {"-gencode=arch=compute_75,code=sm_75", "-gencode=arch=compute_80,code=sm_80", "-c", "-o",
                  "/dev/null", compiled.string()};
  request.timeout = std::chrono::minutes(5);
  auto outcome = kl::run_process(request);
  REQUIRE(outcome);
  INFO(outcome->stdout_text << outcome->stderr_text << "\n--- source ---\n" << fixed);
  CHECK(outcome->exit_code == 0);
}
