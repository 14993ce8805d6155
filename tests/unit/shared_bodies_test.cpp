// A parse of another configuration skips the bodies it shares with the first parse and takes their
// facts from it (pipeline/shared_bodies.h): each arch still gets the facts a parse of its own
// gives, while the bodies nothing arch-dependent reaches are not parsed again. Real clang, real
// CUDA headers when installed.
#include "analyzers/pipeline/shared_bodies.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/frontend/raw_identifiers.h"
#include "analyzers/isolation/analysis_wire.h"
#include "analyzers/pipeline/arch_parses.h"
#include "tests/unit/analysis_test_support.h"
#include "tests/unit/device_command_support.h"

using namespace kl::analyzers;
namespace fs = std::filesystem;

namespace {

fs::path write(const std::string& name, const std::string& text) {
  fs::path path = testing::scratch_file("kl_shared_bodies_test", name);
  std::ofstream(path) << text;
  return path;
}

ClangCommandInputs command_for(const fs::path& file) { return testing::command_inputs_for(file); }
using testing::cap;

// Every field of the facts, each kind's records in one order: a parse that carries records over
// lists them after its own, and no rule depends on the order of records of different places.
nlohmann::json facts_json(const UnitFacts& facts) {
  FileAnalysis carrier;
  carrier.facts = facts;
  nlohmann::json json = analysis_to_json(carrier).at("facts");
  for (auto& [kind, records] : json.items())
    if (records.is_array()) std::sort(records.begin(), records.end());
  return json;
}

// Sets KERNEL_LSP_DISABLE_SHARED_BODIES for the scope.
class SharingOff {
 public:
  SharingOff() { setenv("KERNEL_LSP_DISABLE_SHARED_BODIES", "1", 1); }
  ~SharingOff() { unsetenv("KERNEL_LSP_DISABLE_SHARED_BODIES"); }
};

// The signature events of `arch`'s configuration of `request`'s file, from a preprocessing run.
ConfigurationEvents events_of(const ParseRequest& request, const char* arch) {
  ConfigurationEvents out;
  REQUIRE(preprocess_signature(device_parse_command(request.command, cap(arch)), request.file, request.text,
                               nullptr, nullptr, nullptr, nullptr, &out));
  return out;
}

// What a parse of `text` for 7.5 can skip, after the first parse, for 9.0.
std::optional<SharedBodies> plan_for_sm75(const fs::path& file, const std::string& text) {
  ParseRequest request{
      .file = file, .text = text, .command = command_for(file), .features = &FeatureTable::builtin()};
  FileAnalysis result;
  std::vector<ArchParse> parses = parse_arch_by_arch(request, {cap("7.5"), cap("9.0")}, result);
  REQUIRE(parses.size() == 2);
  REQUIRE(parses[0].definitions);
  return plan_shared_bodies({*parses[0].definitions, parses[0].events, *parses[0].facts}, text, file.string(),
                            events_of(request, "7.5"));
}

// Kernels whose code an arch test reaches in several ways, and kernels it does not reach.
const char* kMixed = R"(#include <cuda_runtime.h>
namespace demo {
#if __CUDA_ARCH__ >= 800
using vec_t = float4;
#else
using vec_t = float2;
#endif

template <typename T>
__device__ T warp_sum(T v) {
  for (int o = 16; o > 0; o = o - 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ float cached_load(const float* p) {
  float v;
  asm volatile("ld.global.L2::128B.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

__global__ void copy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = warp_sum(in[i]);
}

__global__ void strided(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i * 33] = in[i];
}

__global__ void wide(const vec_t* in, vec_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void tiered(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#if __CUDA_ARCH__ >= 800
  float v = cached_load(in + i);
#else
  float v = warp_sum(in[i]);
#endif
  out[i] = v;
}

template <typename T>
__global__ void scale(T* out, const T* in, T alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * in[2 * i];
}

#if __CUDA_ARCH__ < 800
__device__ float doubled(float x) { return 2.f * x; }
#endif

__global__ void older(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if __CUDA_ARCH__ < 800
  if (i < n) out[i] = doubled(out[i]);
#else
  if (i < n) out[i] *= 2.f;
#endif
}

void launch_all(const float* in, float* out, int n, cudaStream_t stream) {
  copy<<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);
  strided<<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);
  tiered<<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);
  scale<float><<<(n + 255) / 256, 256, 0, stream>>>(out, in, 2.f, n);
  older<<<(n + 255) / 256, 256, 0, stream>>>(out, n);
}

void launch_wide(const float* in, float* out, int n) {
  wide<<<n / 512, 256, 4 * sizeof(vec_t)>>>(reinterpret_cast<const vec_t*>(in), reinterpret_cast<vec_t*>(out), n / 2);
}
}  // namespace demo
)";

}  // namespace

TEST_CASE("identifiers are read from code, not comments, literals or directives") {
  IdentifierSet names =
      identifiers_in("int f(Vec a) { /* helper */ return g(a, \"h\"); }\n#if KL_X\n#endif\n");
  CHECK(names == IdentifierSet{"f", "Vec", "a", "g"});
  CHECK(top_level_identifiers_in(
            "template <typename T> __device__ T helper(T x) { return x; }\nusing vec_t = float4;") ==
        IdentifierSet{"T", "helper", "vec_t", "float4"});
  auto macros = macro_identifiers_in("#define CALL(x) helper(x) + \\\n  other(x)\nint y = CALL(1);\n");
  REQUIRE(macros.count("CALL"));
  CHECK(macros["CALL"] == IdentifierSet{"x", "helper", "other"});
  IdentifierSet used{"CALL"};
  add_macro_identifiers(used, macros);
  CHECK(used.count("helper"));
  CHECK(braces_balance("void f() { if (x) { } }"));
  CHECK_FALSE(braces_balance("namespace v2 {"));
}

TEST_CASE(
    "other configurations skip what they share with the first parse, and each arch keeps its own facts") {
  fs::path file = write("kl_mixed.cu", kMixed);
  const std::vector<Capability> targets = {cap("7.5"), cap("8.0"), cap("9.0")};
  kl::ParallelRunner runner(1);
  for (kl::ParallelRunner* parallel : {static_cast<kl::ParallelRunner*>(nullptr), &runner}) {
    INFO((parallel ? "side by side" : "one at a time"));
    ParseRequest request{.file = file,
                         .text = kMixed,
                         .command = command_for(file),
                         .features = &FeatureTable::builtin(),
                         .parallel = parallel};
    FileAnalysis shared;
    std::vector<ArchParse> parses = parse_arch_by_arch(request, targets, shared);
    REQUIRE(parses.size() == 2);  // 9.0 (with 8.0), 7.5
    REQUIRE(parses[0].definitions);
    const FirstParse first{*parses[0].definitions, parses[0].events, *parses[0].facts};
    std::optional<SharedBodies> plan =
        plan_shared_bodies(first, kMixed, file.string(), events_of(request, "7.5"));
    REQUIRE(plan);
    // copy, strided and scale (unchanged kernels) are skipped; warp_sum is read by tiered, and
    // launch_all launches tiered and older; wide and launch_wide see another vec_t.
    std::string skipped_names;
    for (uint32_t at : plan->skipped) skipped_names += std::string(kMixed + at, 12) + "|";
    INFO(skipped_names);
    CHECK(plan->skipped.size() == 3);
    auto offset_of = [&](const std::string& name) {
      return static_cast<uint32_t>(std::string(kMixed).find(name));
    };
    for (const char* name : {"copy(const", "strided(const", "scale(T*"})
      CHECK(std::binary_search(plan->skipped.begin(), plan->skipped.end(), offset_of(name)));

    std::vector<ArchFacts> per_target = facts_per_target(targets, parses);
    SharingOff off;
    for (size_t i = 0; i < targets.size(); ++i) {
      INFO(targets[i].text());
      FileAnalysis alone;
      std::vector<ArchParse> own = parse_arch_by_arch(request, {targets[i]}, alone);
      REQUIRE(own.size() == 1);
      CHECK(facts_json(*per_target[i].facts) == facts_json(*own[0].facts));
    }
  }
}

TEST_CASE("what the events cannot place in the main file's definitions leaves a configuration parsed whole") {
  write("kl_arch_header.cuh",
        "#pragma once\n#if __CUDA_ARCH__ >= 800\n#define KL_WIDTH 8\n#else\n#define KL_WIDTH 4\n#endif\n"
        "__device__ inline int width() { return KL_WIDTH; }\n");
  std::string text =
      "#include \"kl_arch_header.cuh\"\n"
      "__global__ void k(int* out) { out[threadIdx.x] = width(); }\n"
      "__global__ void j(int* out) { out[threadIdx.x] = 1; }\n";
  CHECK_FALSE(plan_for_sm75(write("kl_arch_header.cu", text), text));
}

TEST_CASE("facts the first parse anchors in a header leave a configuration parsed whole") {
  // The header's kernel is instantiated by main-file code that the index cannot tie to it.
  write("kl_header_kernel.cuh",
        "#pragma once\ntemplate <typename T>\n"
        "__global__ void fill(T* out, int n) { int i = threadIdx.x; if (i < n) out[i] = T(1); }\n");
  std::string text =
      "#include \"kl_header_kernel.cuh\"\n"
      "__global__ void k(int* out) {\n#if __CUDA_ARCH__ >= 800\n  out[threadIdx.x] = 2;\n#endif\n}\n"
      "void launch(float* out, int n) { fill<float><<<1, 32>>>(out, n); }\n";
  CHECK_FALSE(plan_for_sm75(write("kl_header_kernel.cu", text), text));
}

TEST_CASE("the findings of every arch are those of configurations parsed whole") {
  // An intrinsic the least capable arch's headers do not declare, in a body no arch test reaches:
  // that parse takes the use from the first parse instead of from clang's error.
  std::string text = std::string(kMixed) +
                     "__global__ void count(const int* in, int* out) {\n"
                     "  atomicAdd(out, __reduce_add_sync(0xffffffffu, in[threadIdx.x]));\n"
                     "}\n";
  fs::path file = write("kl_mixed_findings.cu", text);
  Analyzer analyzer(testing::settings_for_archs({"7.5", "8.0", "8.9", "9.0", "10.0"}));
  FileAnalysis shared = analyzer.analyze_source(file, text);
  FileAnalysis whole;
  {
    SharingOff off;
    whole = analyzer.analyze_source(file, text);
  }
  FileAnalysis a, b;
  a.findings = shared.findings;
  b.findings = whole.findings;
  CHECK(analysis_to_json(a).at("findings") == analysis_to_json(b).at("findings"));
  CHECK_FALSE(testing::findings_of_rule(shared, "arch-mismatch").empty());
}

TEST_CASE("after an edit, the last analysis's events, moved past the edit, tell what to skip") {
  AnalysisSettings settings = testing::settings_for_archs({"7.5", "8.0", "9.0"});
  settings.cache_parses = true;
  Analyzer server(settings);
  fs::path file = write("kl_mixed_edited.cu", kMixed);
  (void)server.analyze_source(file, kMixed);
  auto replaced = [](std::string text, const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  // In a shared body, in a kernel the arch test reaches, and before both (moving every event),
  // one after the other as a user types.
  std::string edited = kMixed;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"out[i * 33]", "out[i * 32 + 1]"},
                                 {"out[i] = v;", "out[i + 1] = v;"},
                                 {"o > 0; o = o - 1", "o >= 1; o = o - 2"}}) {
    edited = replaced(edited, from, to);
    INFO(to);
    FileAnalysis reused = server.analyze_source(file, edited);
    for (const auto& timing : reused.timings) CHECK(timing.stage.rfind("preprocess", 0) != 0);
    FileAnalysis whole;
    {
      SharingOff off;
      Analyzer fresh(testing::settings_for_archs({"7.5", "8.0", "9.0"}));
      whole = fresh.analyze_source(file, edited);
    }
    FileAnalysis a, b;
    a.findings = reused.findings;
    b.findings = whole.findings;
    CHECK(analysis_to_json(a).at("findings") == analysis_to_json(b).at("findings"));
  }
}
