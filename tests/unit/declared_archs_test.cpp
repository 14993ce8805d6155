// The archs a project without build.toml declares in its own build files (project/declared_archs.h),
// and what the analysis does with them: the project's list, or, when nothing declares one, a
// single assumed arch whose arch findings are warnings that say so.
#include "analyzers/project/declared_archs.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzers/pipeline/analysis.h"
#include "tests/unit/scratch_tree.h"

using namespace kl::analyzers;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> texts(const std::vector<DeclaredArch>& archs) {
  std::vector<std::string> out;
  for (const auto& d : archs) out.push_back(d.arch.text());
  return out;
}

std::vector<std::string> texts(const std::vector<Capability>& archs) {
  std::vector<std::string> out;
  for (const auto& c : archs) out.push_back(c.text());
  return out;
}


// Uses __reduce_add_sync (8.0+) unguarded.
const char* kReduceKernel = R"(
__global__ void row_sum(const unsigned* in, unsigned* out) {
  unsigned v = in[threadIdx.x];
  v = __reduce_add_sync(0xffffffffu, v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
)";

AnalysisSettings settings_without_caches() {
  AnalysisSettings s;
  s.shared_pch = false;
  return s;
}

}  // namespace

TEST_CASE("setup.py: gencode strings, -arch flags and TORCH_CUDA_ARCH_LIST assignments") {
  const std::string setup = R"(
import os
os.environ["TORCH_CUDA_ARCH_LIST"] = "7.0 7.5+PTX"
cc_flag = []
cc_flag.append("-gencode")
cc_flag.append("arch=compute_80,code=sm_80")
# cc_flag.append("arch=compute_61,code=sm_61")   (a comment: not a declaration)
if bare_metal_version >= Version("11.8"):
    cc_flag += ["-gencode", "arch=compute_90a,code=[sm_90a,compute_90a]"]
extra = {"nvcc": ["-O3", "-arch", "sm_86"]}
)";
  auto archs = archs_declared_in_text("setup.py", setup);
  CHECK(texts(archs) == std::vector<std::string>{"7.0", "7.5", "8.0", "9.0a", "8.6"});
  CHECK(archs[0].location.range.start.line == 2);
  CHECK(archs[2].location.range.start.line == 5);
}

TEST_CASE("CMake: CMAKE_CUDA_ARCHITECTURES and the CUDA_ARCHITECTURES property") {
  const std::string cmake = R"(
set(CMAKE_CUDA_ARCHITECTURES "75;80-real;90a-virtual")
if(CMAKE_CUDA_ARCHITECTURES VERSION_LESS 70)
  message(FATAL_ERROR "too old")
endif()
set_target_properties(ops PROPERTIES CUDA_ARCHITECTURES 89 120)
)";
  CHECK(texts(archs_declared_in_text("CMakeLists.txt", cmake)) ==
        std::vector<std::string>{"7.5", "8.0", "9.0a", "8.9", "12.0"});
  // A list made at configure time names nothing literal.
  CHECK(archs_declared_in_text("CMakeLists.txt", "set(CMAKE_CUDA_ARCHITECTURES native)\n").empty());
}

TEST_CASE("TORCH_CUDA_ARCH_LIST values: separators, +PTX, arch-specific targets and torch's names") {
  CHECK(texts(parse_torch_arch_list("8.0;8.6 9.0a+ptx")) ==
        std::vector<std::string>{"8.0", "8.6", "9.0a+PTX"});
  CHECK(texts(parse_torch_arch_list("Ampere;Hopper")) == std::vector<std::string>{"8.0", "8.6", "9.0"});
  CHECK(parse_torch_arch_list("all").empty());
}

TEST_CASE("a compile command's arch flags") {
  CHECK(texts(archs_of_command({"nvcc", "-gencode=arch=compute_80,code=sm_80", "-c", "k.cu"})) ==
        std::vector<std::string>{"8.0"});
  CHECK(texts(archs_of_command({"clang++", "--cuda-gpu-arch=sm_90", "-c", "k.cu"})) ==
        std::vector<std::string>{"9.0"});
  CHECK(archs_of_command({"nvcc", "-c", "k.cu"}).empty());
}

TEST_CASE("the nearest folder that declares wins; the environment comes last") {
  kl::testing::ScratchTree tmp("kl-declared");
  tmp.write("setup.py",
            "ext = CUDAExtension('x', ['csrc/a.cu'], extra_compile_args={'nvcc': ['-arch=sm_80']})\n");
  tmp.write("csrc/sub/Makefile", "all:\n\tnvcc -o k k.cu\n");  // declares nothing: look further up
  fs::path source = tmp.write("csrc/sub/a.cu", kReduceKernel);
  DeclaredArchs found = find_declared_archs(source, std::nullopt, {}, std::string("7.5"));
  CHECK(texts(found.archs) == std::vector<std::string>{"8.0"});
  CHECK(found.origin == "setup.py");
  CHECK(found.archs.front().location.file == (tmp.root() / "setup.py").string());
  CHECK(found.files_read.size() >= 2);

  kl::testing::ScratchTree bare("kl-declared");
  fs::path lone = bare.write("a.cu", kReduceKernel);
  DeclaredArchs from_env = find_declared_archs(lone, std::nullopt, {}, std::string("8.0;9.0"));
  CHECK(texts(from_env.archs) == std::vector<std::string>{"8.0", "9.0"});
  CHECK(from_env.origin == "the environment's TORCH_CUDA_ARCH_LIST");
}

TEST_CASE("analysis without build.toml: the project's own archs decide arch-mismatch") {
  kl::testing::ScratchTree tmp("kl-declared");
  tmp.write("setup.py",
            "cc = ['-gencode', 'arch=compute_80,code=sm_80', '-gencode', 'arch=compute_90,code=sm_90']\n");
  fs::path source = tmp.write("csrc/row_sum.cu", kReduceKernel);
  Analyzer analyzer(settings_without_caches());
  FileAnalysis result = analyzer.analyze_source(source, kReduceKernel);
  CHECK(texts(result.archs.archs) == std::vector<std::string>{"8.0", "9.0"});
  CHECK(result.archs.origin == "setup.py");
  CHECK_FALSE(result.archs.assumed);
  for (const auto& f : result.findings) CHECK(f.rule_id != "arch-mismatch");
  CHECK(std::find(result.inputs.begin(), result.inputs.end(), (tmp.root() / "setup.py").string()) !=
        result.inputs.end());

  // The same project building for 7.5 too: a real error, with the place it is declared.
  tmp.write("setup.py",
            "cc = ['-gencode', 'arch=compute_75,code=sm_75', '-gencode', 'arch=compute_90,code=sm_90']\n");
  FileAnalysis with_old = analyzer.analyze_source(source, kReduceKernel);
  const Finding* mismatch = nullptr;
  for (const auto& f : with_old.findings)
    if (f.rule_id == "arch-mismatch") mismatch = &f;
  REQUIRE(mismatch);
  CHECK(mismatch->severity == Severity::Error);
  CHECK(mismatch->message.find("setup.py builds this code for 7.5") != std::string::npos);
  REQUIRE_FALSE(mismatch->notes.empty());
  CHECK(mismatch->notes.front().location.file == (tmp.root() / "setup.py").string());
}

TEST_CASE("analysis with nothing declared: one assumed arch, arch findings only warn") {
  kl::testing::ScratchTree tmp("kl-declared");
  // An arch-specific feature the assumed (most capable) arch lacks: wgmma is 9.0a only.
  const std::string text = R"(
__global__ void k(unsigned* out) {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  out[threadIdx.x] = 1;
}
)";
  fs::path source = tmp.write("k.cu", text);
  Analyzer analyzer(settings_without_caches());
  FileAnalysis result = analyzer.analyze_source(source, text);
  CHECK(result.archs.assumed);
  CHECK(result.archs.archs.size() == 1);
  CHECK(result.archs.origin.find("an assumed arch list") == 0);
  int mismatches = 0;
  for (const auto& f : result.findings) {
    if (f.rule_id != "arch-mismatch") continue;
    ++mismatches;
    CHECK(f.severity == Severity::Warning);
    CHECK(f.message.find("assumed") != std::string::npos);
  }
  CHECK(mismatches == 1);
}

TEST_CASE("a build.toml that does not parse is named as the reason, not read past") {
  kl::testing::ScratchTree tmp("kl-declared");
  tmp.write("build.toml", "[general\nname = \"broken\"\n");
  tmp.write("setup.py", "cc = ['-gencode', 'arch=compute_75,code=sm_75']\n");  // not how the project builds
  fs::path source = tmp.write("row_sum/row_sum.cu", kReduceKernel);
  Analyzer analyzer(settings_without_caches());
  FileAnalysis result = analyzer.analyze_source(source, kReduceKernel);
  CHECK(result.archs.assumed);
  CHECK(result.archs.origin.find("build.toml does not parse (line 1") != std::string::npos);
  CHECK(std::find(result.inputs.begin(), result.inputs.end(), (tmp.root() / "build.toml").string()) !=
        result.inputs.end());
  for (const auto& f : result.findings) CHECK(f.rule_id != "arch-mismatch");
}
