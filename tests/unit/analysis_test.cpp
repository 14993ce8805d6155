// End-to-end through the analyzers' front door with in-memory sources: the real clang front
// end, the real CUDA headers (when a toolkit is installed), the real rules.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

using namespace kl::analyzers;
using namespace kl::analyzers::testing;

TEST_CASE("device findings survive headers that cannot be found") {
  Analyzer analyzer(settings_for_archs({"7.5", "9.0"}));
  const char* source =
      "#include <not_installed/extension.h>\n"
      "#include <not_installed/cuda/context.h>\n"
      "#include \"cutlass/cutlass.h\"\n"
      "__global__ void k(int* out, at::Tensor t) {\n"
      "  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, out[threadIdx.x]);\n"
      "}\n";
  auto result = analyzer.analyze_source(scratch_file("kl_analysis_test", "missing.cu"), source);
  CHECK(result.missing_headers.size() == 3);
  auto mismatches = findings_of_rule(result, "arch-mismatch");
  REQUIRE(mismatches.size() == 1);
  CHECK(mismatches[0]->location.range.start.line == 4);
  CHECK(mismatches[0]->location.range.start.column == 21);
  CHECK(mismatches[0]->location.range.end.column == 38);
  CHECK(mismatches[0]->message.find("7.5") != std::string::npos);
  CHECK(mismatches[0]->message.find("9.0") == std::string::npos);
  // One note for the file, on the first missing #include, naming every header it lacks.
  auto notes = findings_of_rule(result, "frontend");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]->location.range.start.line == 0);
  CHECK(notes[0]->message.find("`not_installed/extension.h`, `not_installed/cuda/context.h` and `cutlass/cutlass.h` were "
                               "not found") == 0);
  CHECK(notes[0]->message.find("CUTLASS_PATH") != std::string::npos);
}

TEST_CASE("host-only code is never device code") {
  Analyzer analyzer(settings_for_archs({"7.5"}));
  const char* source =
      "#include <cuda_runtime.h>\n"
      "#ifndef __CUDA_ARCH__\n"
      "int host_reduce(int v) { return __reduce_add_sync(0xffffffffu, v); }\n"
      "#endif\n"
      "void host_asm() { asm volatile(\"cp.async.commit_group;\"); }\n"
      "__global__ void k(int* out) { out[threadIdx.x] = 1; }\n";
  auto result = analyzer.analyze_source(scratch_file("kl_analysis_test", "host.cu"), source);
  CHECK(findings_of_rule(result, "arch-mismatch").empty());
  CHECK(result.facts.kernels.size() == 1);
}

TEST_CASE("guards make code inactive for the archs they exclude") {
  Analyzer analyzer(settings_for_archs({"7.5", "8.0", "9.0", "9.0a"}));
  const char* source =
      "__global__ void k(int* out) {\n"
      "#if __CUDA_ARCH__ >= 800\n"
      "  out[0] = __reduce_add_sync(0xffffffffu, out[threadIdx.x]);\n"
      "#endif\n"
      "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
      "  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n"
      "#endif\n"
      "  asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");\n"
      "}\n";
  auto result = analyzer.analyze_source(scratch_file("kl_analysis_test", "guards.cu"), source);
  auto mismatches = findings_of_rule(result, "arch-mismatch");
  REQUIRE(mismatches.size() == 1);
  CHECK(mismatches[0]->location.range.start.line == 7);
  // Unguarded wgmma: every target but 9.0a lacks it.
  CHECK(mismatches[0]->message.find("7.5, 8.0 and 9.0") != std::string::npos);
  CHECK(result.facts.arch_dependent);
}

TEST_CASE("a .cuh header is analysed as CUDA") {
  Analyzer analyzer(settings_for_archs({"7.5"}));
  auto result = analyzer.analyze_source(
      scratch_file("kl_analysis_test", "helpers.cuh"),
      "#pragma once\n__device__ inline int warp_sum(int v) { return __reduce_add_sync(0xffffffffu, v); }\n");
  CHECK(findings_of_rule(result, "arch-mismatch").size() == 1);
}

TEST_CASE("garbage, empty and non-CUDA text produce no crash and no device findings") {
  Analyzer analyzer(settings_for_archs({"8.0"}));
  std::string garbage;
  for (int i = 0; i < 4000; ++i) garbage += static_cast<char>((i * 7919) % 251 + 1);
  for (const std::string& text : {std::string(), garbage, std::string("def f():\n    return 1\n"),
                                  std::string("__global__ void k( {{{{ ]]]"), std::string(5000, '{')}) {
    auto result = analyzer.analyze_source(scratch_file("kl_analysis_test", "garbage.cu"), text);
    CHECK(findings_of_rule(result, "arch-mismatch").empty());
  }
}

TEST_CASE("static shared memory over 48 KB and launches over an arch's opt-in maximum") {
  Analyzer analyzer(settings_for_archs({"7.5", "9.0"}));
  const char* source =
      "#include <cuda_runtime.h>\n"
      "__global__ void tile(float* o) { __shared__ float s[13000]; s[threadIdx.x] = 1; o[0] = s[1]; }\n"
      "__global__ void dyn(float* o) { extern __shared__ float d[]; d[threadIdx.x] = 1; o[0] = d[1]; }\n"
      "void launch(float* o) {\n"
      "  cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);\n"
      "  dyn<<<1, 128, 100000>>>(o);\n"
      "  tile<<<1, 128>>>(o);\n"
      "}\n";
  auto result = analyzer.analyze_source(scratch_file("kl_analysis_test", "smem.cu"), source);
  auto smem = findings_of_rule(result, "smem-limit");
  REQUIRE(smem.size() == 3);
  CHECK(smem[0]->location.range.start.line == 1);  // 52,000 static bytes
  CHECK(smem[1]->location.range.start.line == 4);  // opt-in over 7.5's 64 KB
  CHECK(smem[2]->location.range.start.line == 5);  // launch over 7.5's 64 KB
  CHECK(smem[2]->message.find("7.5") != std::string::npos);
  CHECK(smem[2]->message.find("9.0") == std::string::npos);
}

TEST_CASE("dynamic shared memory over 48 KB needs cudaFuncSetAttribute") {
  Analyzer analyzer(settings_for_archs({"9.0"}));
  const char* source =
      "#include <cuda_runtime.h>\n"
      "__global__ void dyn(float* o) { extern __shared__ float d[]; o[0] = d[threadIdx.x]; }\n"
      "void launch(float* o) { dyn<<<1, 128, 64 * 1024>>>(o); }\n";
  auto result = analyzer.analyze_source(scratch_file("kl_analysis_test", "optin.cu"), source);
  auto smem = findings_of_rule(result, "smem-limit");
  REQUIRE(smem.size() == 1);
  CHECK(smem[0]->message.find("cudaFuncSetAttribute") != std::string::npos);
}

TEST_CASE("suppression comments silence a finding on their line") {
  Analyzer analyzer(settings_for_archs({"7.5"}));
  auto result = analyzer.analyze_source(
      scratch_file("kl_analysis_test", "suppressed.cu"),
      "__global__ void k(int* o) {\n"
      "  // kernel-lsp: ignore[arch-mismatch]\n"
      "  o[0] = __reduce_add_sync(0xffffffffu, o[threadIdx.x]);\n"
      "}\n");
  CHECK(findings_of_rule(result, "arch-mismatch").empty());
}

TEST_CASE("a cancelled analysis stops and says so") {
  Analyzer analyzer(settings_for_archs({"8.0"}));
  kl::CancellationToken cancel;
  cancel.cancel();
  auto result = analyzer.analyze_source(scratch_file("kl_analysis_test", "cancel.cu"), "__global__ void k() {}\n", &cancel);
  CHECK(result.cancelled);
}

TEST_CASE("a missing toolkit degrades the analysis with a clear message") {
  AnalysisSettings settings = settings_for_archs({"8.0"});
  settings.cuda_path = "/nonexistent/cuda-toolkit";
  Analyzer analyzer(settings);
  auto result = analyzer.analyze_source(scratch_file("kl_analysis_test", "notoolkit.cu"), "__global__ void k(int* o) { o[0] = 1; }\n");
  auto notes = findings_of_rule(result, "frontend");
  REQUIRE_FALSE(notes.empty());
  CHECK(notes[0]->message.find("/nonexistent/cuda-toolkit") != std::string::npos);
}

TEST_CASE("the preamble cache gives the same findings on a re-parse after an edit") {
  AnalysisSettings settings = settings_for_archs({"7.5"});
  settings.cache_parses = true;
  Analyzer analyzer(settings);
  std::string source = "#include <cuda_runtime.h>\n__global__ void k(int* o) {\n  o[0] = __reduce_add_sync(0xffffffffu, o[threadIdx.x]);\n}\n";
  auto first = analyzer.analyze_source(scratch_file("kl_analysis_test", "cached.cu"), source);
  source.insert(source.find("o[0]"), "  ");
  auto second = analyzer.analyze_source(scratch_file("kl_analysis_test", "cached.cu"), source);
  REQUIRE(findings_of_rule(first, "arch-mismatch").size() == 1);
  REQUIRE(findings_of_rule(second, "arch-mismatch").size() == 1);
  CHECK(findings_of_rule(second, "arch-mismatch")[0]->location.range.start.column ==
        findings_of_rule(first, "arch-mismatch")[0]->location.range.start.column + 2);
}

TEST_CASE("a re-parse that reuses the preamble reports the errors of its include region as a fresh parse does") {
  AnalysisSettings settings = settings_for_archs({"9.0"});
  settings.cache_parses = true;
  Analyzer analyzer(settings);
  auto file = scratch_file("kl_analysis_test", "broken_header_user.cu");
  std::string header;
  for (int i = 0; i < 25; ++i) header += "undeclared_type_" + std::to_string(i) + " value_" + std::to_string(i) + ";\n";
  std::ofstream(file.parent_path() / "broken_header.h") << header;
  std::string source = "#include \"broken_header.h\"\n__global__ void k(float* o) { o[threadIdx.x] = 1.f; }\n";
  auto note_of = [](const FileAnalysis& analysis) {
    auto notes = findings_of_rule(analysis, "frontend");
    return notes.empty() ? std::string() : notes.front()->message;
  };
  std::string fresh = note_of(analyzer.analyze_source(file, source));
  CHECK(fresh.find("clang reported 25 errors") != std::string::npos);
  for (int edit = 0; edit < 2; ++edit) {  // the second and third parses reuse the preamble
    source.insert(source.find("o[threadIdx.x]"), " ");
    CHECK(note_of(analyzer.analyze_source(file, source)) == fresh);
  }
}

TEST_CASE("build.toml: the reader's problems and arch-unsupported, by position, each as its rule's finding") {
  const std::string text = R"([general]
name = "rmsnorm"
version = "1"
edition = 5
license = "apache-2.0"
backends = ["cuda"]

[torch]
src = ["torch-ext/torch_binding.cpp"]

[kernel.rmsnorm]
backend = "cuda"
depends = ["torch"]
src = ["rmsnorm_cuda/rmsnorm.cu"]
cuda-capabilities = ["8.0", "13.7"]
)";
  Analyzer analyzer{AnalysisSettings{}};
  auto findings = analyzer.analyze_build_toml(scratch_file("kl_analysis_test", "build.toml"), text);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].rule_id == "build-toml");
  CHECK(findings[0].severity == Severity::Error);
  CHECK(findings[0].location.range.start.line == 2);
  CHECK(findings[1].rule_id == "arch-unsupported");
  CHECK(findings[1].severity == Severity::Error);
  CHECK(findings[1].location.range.start.line == 14);

  AnalysisSettings without_build_toml;
  without_build_toml.disabled_rules = {"build-toml"};
  Analyzer quieter{without_build_toml};
  auto rest = quieter.analyze_build_toml(scratch_file("kl_analysis_test", "build.toml"), text);
  REQUIRE(rest.size() == 1);
  CHECK(rest[0].rule_id == "arch-unsupported");
}

TEST_CASE("a suppression comment that names no rule is reported where it is written") {
  const std::string text = R"([general]
name = "rmsnorm"
version = 1
edition = 5
license = "apache-2.0"
backends = ["cuda"]
# kernel-lsp: ignore-file[build-tom, arch-unsupported, *]
)";
  Analyzer analyzer{AnalysisSettings{}};
  auto findings = analyzer.analyze_build_toml(scratch_file("kl_analysis_test", "build.toml"), text);
  std::vector<const Finding*> frontend;
  for (const Finding& f : findings)
    if (f.rule_id == "frontend") frontend.push_back(&f);
  REQUIRE(frontend.size() == 1);  // arch-unsupported and * are fine
  CHECK(frontend[0]->severity == Severity::Warning);
  CHECK(frontend[0]->location.range.start == Position{6, 26});
  CHECK(frontend[0]->message.find("no rule is called `build-tom`; did you mean `build-toml`?") != std::string::npos);
}

