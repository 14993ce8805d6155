// What the world around a file changes in its analysis, end to end through the analyzers' front
// door (the real clang front end and CUDA headers): nvcc's version macros, build.toml's include
// folders, and the kernels whose sources include a header.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/scratch_tree.h"

using namespace kl::analyzers;
namespace fs = std::filesystem;

namespace {

std::vector<const Finding*> of_rule(const FileAnalysis& analysis, const std::string& rule) {
  std::vector<const Finding*> out;
  for (const auto& f : analysis.findings)
    if (f.rule_id == rule) out.push_back(&f);
  return out;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The 0-based line of the first line of `text` that contains `part`.
uint32_t line_of(const std::string& text, const std::string& part) {
  const size_t at = text.find(part);
  REQUIRE(at != std::string::npos);
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n'));
}

// A kernel project in a fresh temporary folder, removed at the end of the test.
struct TempProject : kl::testing::ScratchTree {
  TempProject() : ScratchTree("kl-project-context") {}
};

constexpr const char* kGeneral = R"([general]
name = "ctx"
version = 1
edition = 5
license = "mit"
backends = ["cuda"]

[torch]
src = []
)";

AnalysisSettings from_build_toml() {
  AnalysisSettings settings;
  settings.use_compile_commands = false;
  return settings;
}

}  // namespace

TEST_CASE("the branch of #if __CUDACC_VER_MAJOR__ >= 12 is the one analysed, as with nvcc") {
  AnalysisSettings settings;
  settings.arch_override.push_back(*parse_capability("9.0"));
  settings.use_compile_commands = false;
  Analyzer analyzer(settings);
  const char* source =
      "__global__ void transpose(float* out, const float* in, int n) {\n"
      "  int x = blockIdx.x * 32 + threadIdx.x;\n"
      "  int y = blockIdx.y * 32 + threadIdx.y;\n"
      "#if defined(__NVCC__) && __CUDACC_VER_MAJOR__ >= 12\n"
      "  out[x * n + y] = in[y * n + x];\n"  // uncoalesced store: only in this branch
      "#else\n"
      "  out[y * n + x] = in[y * n + x];\n"
      "#endif\n"
      "}\n";
  TempProject project;
  FileAnalysis result = analyzer.analyze_source(project.write("version.cu", source), source);
  auto uncoalesced = of_rule(result, "uncoalesced-access");
  REQUIRE(uncoalesced.size() == 1);
  CHECK(uncoalesced[0]->location.range.start.line == 4);
  CHECK(of_rule(result, "frontend").empty());
}

TEST_CASE("build.toml's include folders are on the include path of the kernel's sources") {
  TempProject project;
  const fs::path toml = project.write("build.toml", std::string(kGeneral) + R"(
[kernel.k]
backend = "cuda"
depends = ["torch"]
src = ["k/k.cu"]
include = ["k/include"]
cuda-capabilities = ["9.0"]
)");
  project.write("k/include/stride.cuh", "#pragma once\nconstexpr int kStride = 32;\n");
  const char* source =
      "#include \"stride.cuh\"\n"  // not next to k.cu: found only through include = [...]
      "__global__ void k(float* out) {\n"
      "  out[threadIdx.x * kStride] = 1.0f;\n"
      "}\n";
  const fs::path file = project.write("k/k.cu", source);
  Analyzer analyzer(from_build_toml());
  FileAnalysis result = analyzer.analyze_source(file, source);
  REQUIRE(result.build_toml);
  CHECK(fs::equivalent(*result.build_toml, toml));
  CHECK(result.missing_headers.empty());
  CHECK(of_rule(result, "frontend").empty());
  CHECK(of_rule(result, "uncoalesced-access").size() == 1);
}

TEST_CASE("a header is analysed for the capabilities of the kernels whose sources include it") {
  TempProject project;
  // The header is listed by [kernel.new] (9.0) but compiled only by [kernel.old]'s source (7.5),
  // which has no __reduce_add_sync.
  const fs::path toml = project.write("build.toml", std::string(kGeneral) + R"(
[kernel.new]
backend = "cuda"
depends = ["torch"]
src = ["new/new.cu", "common/reduce.cuh"]
cuda-capabilities = ["9.0"]

[kernel.old]
backend = "cuda"
depends = ["torch"]
src = ["old/old.cu"]
cuda-capabilities = ["7.5"]
)");
  project.write("new/new.cu", "__global__ void unrelated() {}\n");
  project.write("old/old.cu", "#include \"../common/reduce.cuh\"\n");
  const char* header =
      "#pragma once\n"
      "__device__ int warp_sum(int v) { return __reduce_add_sync(0xffffffffu, v); }\n";
  const fs::path file = project.write("common/reduce.cuh", header);
  Analyzer analyzer(from_build_toml());
  FileAnalysis result = analyzer.analyze_source(file, header);

  REQUIRE(result.archs.archs.size() == 1);
  CHECK(result.archs.archs[0] == *parse_capability("7.5"));
  CHECK(result.archs.origin == "build.toml (this file is included by the sources of [kernel.old])");
  auto mismatches = of_rule(result, "arch-mismatch");
  REQUIRE(mismatches.size() == 1);
  CHECK(mismatches[0]->location.range.start.line == 1);
  CHECK(contains(mismatches[0]->message, "included by the sources of [kernel.old]"));
  CHECK(contains(mismatches[0]->message, "7.5"));
  // The note points at the 7.5 that [kernel.old] lists.
  REQUIRE(mismatches[0]->notes.size() == 1);
  CHECK(fs::equivalent(mismatches[0]->notes[0].location.file, toml));
  CHECK(line_of(read_text(toml), "cuda-capabilities = [\"7.5\"]") ==
        mismatches[0]->notes[0].location.range.start.line);
}
