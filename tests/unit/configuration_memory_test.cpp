// Which edits keep every configuration's events in step, so that the server may reuse the last
// analysis's grouping of archs instead of preprocessing each arch again; and that the pipeline,
// reusing it, finds what a fresh analysis finds.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "analyzers/pipeline/analysis.h"
#include "analyzers/pipeline/configuration_memory.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

namespace {

const std::string kSource =
    "#define TILE 32\n"
    "#if __CUDA_ARCH__ >= 800\n"
    "#define VEC 4\n"
    "__device__ float tier() { return 2.0f; }\n"
    "#else\n"
    "__device__ float tier() { return 1.0f; }\n"
    "#endif\n"
    "__global__ void scale(float* out, const float* in, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = in[i] * 0.5f * tier(); // halve\n"
    "}\n";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("edits of code that no directive, literal delimiter or macro touches keep the configurations") {
  const MacroNames macros{"TILE", "VEC", "__CUDA_ARCH__"};
  CHECK(edit_keeps_configurations(kSource, kSource, macros));
  CHECK(edit_keeps_configurations(kSource, replaced(kSource, "0.5f", "0.25f"), macros));
  CHECK(edit_keeps_configurations(kSource, replaced(kSource, "in[i]", "in[i + 1]"), macros));
  CHECK(edit_keeps_configurations(kSource, replaced(kSource, "int i =", "int index = 0;\n  int i ="), macros));
  CHECK(edit_keeps_configurations(kSource, replaced(kSource, "  int i", "\n\n  int i"), macros));
  CHECK(edit_keeps_configurations(kSource, replaced(kSource, "return 1.0f;", "return 1.5f;"), macros));  // inactive on 8.0+
}

TEST_CASE("edits that may add, drop or change an event are not trusted") {
  const MacroNames macros{"TILE", "VEC", "__CUDA_ARCH__"};
  // A macro written or unwritten, also by growing an identifier into one.
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "0.5f", "TILE"), macros));
  CHECK(edit_keeps_configurations(kSource, replaced(kSource, "int i =", "int VE ="), macros));  // no macro: kept
  CHECK_FALSE(edit_keeps_configurations(replaced(kSource, "int i =", "int VE ="),
                                        replaced(kSource, "int i =", "int VEC ="), macros));
  // Directives, on the edited line or made by it, and line continuations.
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "#define VEC 4", "#define VEC 8"), macros));
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "  int i", "#if 0\n  int i"), macros));
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "#else", "#el"), macros));
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "0.5f", "0.5f %: x"), macros));
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "0.5f", "0.5f \\"), macros));
  // Comments and literals opened or closed.
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "0.5f", "0.5f /* "), macros));
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "// halve", "/ halve"), macros));
  CHECK_FALSE(edit_keeps_configurations(kSource, replaced(kSource, "0.5f", "'a'"), macros));
  CHECK(edit_keeps_configurations(kSource, replaced(kSource, " * 0.5f", " *0.5f"), macros));  // no `/` near
  std::string slash_star = replaced(kSource, "0.5f *", "0.5f / x *");
  CHECK_FALSE(edit_keeps_configurations(slash_star, replaced(slash_star, "/ x *", "/*"), macros));
}

TEST_CASE("an analysis that reuses the last grouping finds what a fresh one finds") {
  AnalysisSettings settings = settings_for_archs({"7.5", "8.0", "8.6", "9.0"});
  settings.cache_parses = true;
  Analyzer server(settings);
  AnalysisSettings plain_settings = settings_for_archs({"7.5", "8.0", "8.6", "9.0"});
  auto file = scratch_file("kl_configuration_memory", "tiers.cu");
  std::string text = kSource + "void launch(float* o, const float* i, int n) { scale<<<4, 128>>>(o, i, n); }\n";
  (void)server.analyze_source(file, text);
  for (const std::string& edited :
       {replaced(text, "0.5f", "0.25f"), replaced(text, "in[i]", "in[i * 2]"), replaced(text, "i < n", "i <= n")}) {
    INFO(edited);
    FileAnalysis reused = server.analyze_source(file, edited);
    bool preprocessed = false;
    for (const auto& timing : reused.timings) preprocessed = preprocessed || timing.stage.rfind("preprocess", 0) == 0;
    CHECK_FALSE(preprocessed);  // the grouping came from the last analysis
    Analyzer fresh(plain_settings);
    FileAnalysis reference = fresh.analyze_source(file, edited);
    REQUIRE(reused.findings.size() == reference.findings.size());
    for (size_t i = 0; i < reused.findings.size(); ++i) {
      CHECK(reused.findings[i].rule_id == reference.findings[i].rule_id);
      CHECK(reused.findings[i].message == reference.findings[i].message);
      CHECK(reused.findings[i].location == reference.findings[i].location);
    }
  }
  // An edit of a directive: preprocessed again.
  FileAnalysis redone = server.analyze_source(file, replaced(text, ">= 800", ">= 860"));
  bool preprocessed = false;
  for (const auto& timing : redone.timings) preprocessed = preprocessed || timing.stage.rfind("preprocess", 0) == 0;
  CHECK(preprocessed);
}

TEST_CASE("the remembered events move with an edit that keeps the configurations") {
  ConfigurationMemory memory;
  memory.text = kSource;
  const uint32_t before = static_cast<uint32_t>(kSource.find("tier() { return 2.0f"));
  const uint32_t after = static_cast<uint32_t>(kSource.find("0.5f"));
  ConfigurationEvent early{true, 1, before, before + 1};
  ConfigurationEvent late{true, 1, after + 4, after + 5, before};
  ConfigurationEvent header{false, 2, 10, 20};
  memory.events = {{early, late, header}};
  std::string edited = replaced(kSource, "0.5f", "0.125f");  // two characters longer
  std::vector<ConfigurationEvents> moved = events_after_edit(memory, edited);
  REQUIRE(moved.size() == 1);
  REQUIRE(moved[0].size() == 3);
  CHECK(moved[0][0].begin == before);
  CHECK(moved[0][1].begin == after + 6);
  CHECK(moved[0][1].end == after + 7);
  CHECK(moved[0][1].definition == before);
  CHECK(moved[0][2].begin == 10);
}
