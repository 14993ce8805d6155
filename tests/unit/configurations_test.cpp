// One parse per distinct preprocessor configuration: configuration signatures (what an arch's
// macros make of the user's code) from a preprocessing run and from a parse agree, split archs
// exactly where the user's code does, and the pipeline parses once per distinct signature and
// publishes the first parse's result early. Real clang, real CUDA headers when installed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/configuration_signature.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/frontend/device_parser.h"
#include "analyzers/isolation/analysis_wire.h"
#include "analyzers/pipeline/analysis.h"
#include "analyzers/pipeline/arch_parses.h"
#include "support/parallel_runner.h"
#include "tests/unit/analysis_test_support.h"
#include "tests/unit/device_command_support.h"

using namespace kl::analyzers;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir() {
  auto dir = fs::temp_directory_path() / "kl_configurations_test";
  fs::create_directories(dir);
  return dir;
}

fs::path write(const std::string& name, const std::string& text) {
  fs::path path = temp_dir() / name;
  std::ofstream(path) << text;
  return path;
}

ClangCommandInputs command_for(const fs::path& file) { return testing::command_inputs_for(file); }
using testing::cap;

ConfigurationSignature preprocessed(const fs::path& file, const std::string& text, const char* arch) {
  auto signature = preprocess_signature(device_parse_command(command_for(file), cap(arch)), file, text);
  REQUIRE(signature);
  return *signature;
}

ConfigurationSignature parsed(const fs::path& file, const std::string& text, const char* arch) {
  auto outcome = parse_device_side(device_parse_command(command_for(file), cap(arch)), file, text,
                                   [](clang::ASTContext&, const SourceView&) {});
  REQUIRE(outcome);
  return outcome->signature;
}

// The facts as the worker sends them: every field, comparable as one value.
nlohmann::json facts_json(const UnitFacts& facts) {
  FileAnalysis carrier;
  carrier.facts = facts;
  return analysis_to_json(carrier).at("facts");
}

nlohmann::json findings_json(const FileAnalysis& analysis) {
  FileAnalysis carrier;
  carrier.findings = analysis.findings;
  return analysis_to_json(carrier).at("findings");
}

size_t stages_named(const FileAnalysis& analysis, const std::string& prefix) {
  return std::count_if(analysis.timings.begin(), analysis.timings.end(),
                       [&](const StageTiming& t) { return t.stage.rfind(prefix, 0) == 0; });
}


// Splits capabilities at 9.0 in the main file and at 8.0 in a project header.
const char* kGuardedHeader =
    "#pragma once\n"
    "#if __CUDA_ARCH__ >= 800\n"
    "#define KL_TEST_WIDE 1\n"
    "#else\n"
    "#define KL_TEST_WIDE 0\n"
    "#endif\n";

std::string guarded_source() {
  write("kl_guarded.cuh", kGuardedHeader);
  return "#include \"kl_guarded.cuh\"\n"
         "__global__ void k(int* out) {\n"
         "#if __CUDA_ARCH__ >= 900\n"
         "  out[threadIdx.x] = __reduce_add_sync(0xffffffffu, out[threadIdx.x]);\n"
         "#else\n"
         "  out[threadIdx.x] = __reduce_min_sync(0xffffffffu, out[threadIdx.x]) + KL_TEST_WIDE;\n"
         "#endif\n"
         "}\n";
}

}  // namespace

TEST_CASE("a preprocessing run and a parse give one arch the same signature") {
  std::string text = guarded_source();
  fs::path file = write("kl_guarded.cu", text);
  for (const char* arch : {"7.5", "8.0", "9.0", "10.0"}) {
    INFO(arch);
    CHECK(preprocessed(file, text, arch) == parsed(file, text, arch));
  }
}

TEST_CASE("system headers' macro state reaches the signature though only their directives are lexed") {
  // A system header whose macros depend on the arch, through #if, #define, #undef, nested
  // includes and function-like macros, with code in between that the check does not lex.
  fs::path system = temp_dir() / "kl_system";
  fs::create_directories(system);
  std::ofstream(system / "kl_sys_inner.h") << "#pragma once\n#define KL_SYS_INNER(x) ((x) * 2)\n";
  std::ofstream(system / "kl_sys.h") << "#pragma once\n"
                                         "#include <kl_sys_inner.h>\n"
                                         "static inline int kl_sys_unused(int v) { return KL_SYS_INNER(v) + 1; }\n"
                                         "#define KL_SYS_LANES 32\n"
                                         "#if __CUDA_ARCH__ >= 800\n"
                                         "#undef KL_SYS_LANES\n"
                                         "#define KL_SYS_LANES KL_SYS_INNER(32)\n"
                                         "#endif\n"
                                         "struct kl_sys_type { int lanes[KL_SYS_LANES]; };\n";
  std::string text = "#include <kl_sys.h>\n"
                     "__global__ void k(int* out) { out[threadIdx.x] = KL_SYS_LANES; }\n";
  fs::path file = write("kl_system_user.cu", text);
  auto command = [&](const char* arch) {
    ClangCommandInputs inputs = command_for(file);
    inputs.extra_flags = {"-isystem", system.string()};
    return device_parse_command(inputs, cap(arch));
  };
  auto preprocessed_with = [&](const char* arch) {
    auto signature = preprocess_signature(command(arch), file, text);
    REQUIRE(signature);
    return *signature;
  };
  for (const char* arch : {"7.5", "8.0", "9.0"}) {
    INFO(arch);
    auto outcome = parse_device_side(command(arch), file, text, [](clang::ASTContext&, const SourceView&) {});
    REQUIRE(outcome);
    CHECK(preprocessed_with(arch) == outcome->signature);
  }
  CHECK(preprocessed_with("8.0") == preprocessed_with("9.0"));
  CHECK_FALSE(preprocessed_with("7.5") == preprocessed_with("8.0"));
}

TEST_CASE("signatures split archs where the user's code does, and only there") {
  std::string text = guarded_source();
  fs::path file = write("kl_guarded.cu", text);
  // Same branches everywhere: 9.0 and 10.0; 8.0 and 8.6.
  CHECK(preprocessed(file, text, "9.0") == preprocessed(file, text, "10.0"));
  CHECK(preprocessed(file, text, "8.0") == preprocessed(file, text, "8.6"));
  // The main file's guard splits 8.6 from 9.0; the header's splits 7.5 from 8.0.
  CHECK_FALSE(preprocessed(file, text, "8.6") == preprocessed(file, text, "9.0"));
  CHECK_FALSE(preprocessed(file, text, "7.5") == preprocessed(file, text, "8.0"));
}

TEST_CASE("an arch macro's value in code makes every arch its own configuration") {
  std::string text = "__global__ void k(int* out) { out[threadIdx.x] = __CUDA_ARCH__; }\n";
  fs::path file = write("kl_value.cu", text);
  CHECK_FALSE(preprocessed(file, text, "8.0") == preprocessed(file, text, "8.6"));
  // In a condition only, the value decides branches and nothing else.
  std::string in_condition =
      "#if __CUDA_ARCH__ >= 700\n__global__ void k(int* out) { out[threadIdx.x] = 1; }\n#endif\n";
  fs::path other = write("kl_condition.cu", in_condition);
  CHECK(preprocessed(other, in_condition, "8.0") == preprocessed(other, in_condition, "8.6"));
}

TEST_CASE("the pipeline parses once per distinct configuration, with the same findings per arch") {
  std::string text = guarded_source();
  fs::path file = write("kl_guarded.cu", text);
  Analyzer analyzer(testing::settings_for_archs({"7.5", "8.0", "8.6", "9.0", "10.0"}));
  FileAnalysis result = analyzer.analyze_source(file, text);
  // 10.0 parsed; 9.0 preprocessed like it; 8.6 differs (parsed); 8.0 like 8.6; 7.5 differs.
  CHECK(stages_named(result, "parse ") == 3);
  CHECK(stages_named(result, "preprocess ") == 4);
  std::vector<const Finding*> mismatches;
  for (const auto& f : result.findings)
    if (f.rule_id == "arch-mismatch") mismatches.push_back(&f);
  REQUIRE(mismatches.size() == 1);  // __reduce_min_sync on 7.5, in the #else branch
  CHECK(mismatches[0]->location.range.start.line == 5);
  CHECK(mismatches[0]->message.find("for 7.5") != std::string::npos);
  CHECK(mismatches[0]->message.find("8.6") == std::string::npos);
}

TEST_CASE("the first parse's result is published before the others, complete for the archs it serves") {
  std::string text = guarded_source();
  fs::path file = write("kl_guarded.cu", text);
  Analyzer analyzer(testing::settings_for_archs({"7.5", "9.0", "10.0"}));
  std::vector<FileAnalysis> early;
  FileAnalysis final = analyzer.analyze_source(file, text, nullptr, nullptr,
                                               [&](const FileAnalysis& partial) { early.push_back(partial); });
  REQUIRE(early.size() == 1);
  CHECK(early[0].partial);
  CHECK_FALSE(final.partial);
  CHECK(early[0].archs_pending == std::vector<Capability>{cap("7.5"), cap("9.0")});
  CHECK(final.archs_pending.empty());
  auto count_mismatches = [](const FileAnalysis& a) {
    return std::count_if(a.findings.begin(), a.findings.end(),
                         [](const Finding& f) { return f.rule_id == "arch-mismatch"; });
  };
  CHECK(count_mismatches(early[0]) == 0);  // 10.0 has both intrinsics
  CHECK(count_mismatches(final) == 1);     // 7.5 has neither
  CHECK(early[0].coverage == final.coverage);

  SECTION("code that tests no arch macro is parsed once and published once") {
    std::string plain = "__global__ void k(int* out) { out[threadIdx.x] = 1; }\n";
    fs::path plain_file = write("kl_plain.cu", plain);
    early.clear();
    FileAnalysis only = analyzer.analyze_source(plain_file, plain, nullptr, nullptr,
                                                [&](const FileAnalysis& partial) { early.push_back(partial); });
    CHECK(early.empty());
    CHECK(stages_named(only, "parse ") == 1);
    CHECK(stages_named(only, "preprocess ") == 0);
  }
}

TEST_CASE("one parse per configuration gives each arch the facts of a parse of its own") {
  std::string text = guarded_source();
  fs::path file = write("kl_guarded.cu", text);
  const std::vector<Capability> targets = {cap("7.5"), cap("8.0"), cap("8.6"), cap("9.0"), cap("10.0")};
  kl::ParallelRunner runner(1);
  for (kl::ParallelRunner* parallel : {static_cast<kl::ParallelRunner*>(nullptr), &runner}) {
    INFO((parallel ? "side by side" : "one at a time"));
    ParseRequest request{.file = file, .text = text, .command = command_for(file),
                         .features = &FeatureTable::builtin(), .parallel = parallel};
    FileAnalysis shared;
    std::vector<ArchParse> parses = parse_arch_by_arch(request, targets, shared);
    REQUIRE(parses.size() == 3);  // 10.0 (with 9.0), 8.6 (with 8.0), 7.5
    CHECK(parses[0].also_serves == std::vector<Capability>{cap("9.0")});
    CHECK(parses[1].also_serves == std::vector<Capability>{cap("8.0")});
    CHECK(parses[2].also_serves.empty());
    std::vector<ArchFacts> per_target = facts_per_target(targets, parses);
    for (size_t i = 0; i < targets.size(); ++i) {
      INFO(targets[i].text());
      FileAnalysis alone;
      std::vector<ArchParse> own = parse_arch_by_arch(request, {targets[i]}, alone);
      REQUIRE(own.size() == 1);
      CHECK(facts_json(*per_target[i].facts) == facts_json(*own[0].facts));
    }
  }
}

TEST_CASE("configurations parsed side by side give the findings of one at a time") {
  std::string text = guarded_source();
  fs::path file = write("kl_guarded.cu", text);
  AnalysisSettings settings = testing::settings_for_archs({"7.5", "8.0", "8.6", "9.0", "10.0"});
  Analyzer one_at_a_time(settings);
  settings.configuration_threads = 2;
  Analyzer side_by_side(settings);
  FileAnalysis a = one_at_a_time.analyze_source(file, text);
  FileAnalysis b = side_by_side.analyze_source(file, text);
  CHECK(findings_json(a) == findings_json(b));
  CHECK(facts_json(a.facts) == facts_json(b.facts));
  CHECK(stages_named(b, "parse ") == 3);
  CHECK(stages_named(b, "preprocess ") == 4);
  CHECK(a.inputs == b.inputs);
}

TEST_CASE("a branch that only defines macros splits archs only where its macros expand") {
  // llm.c's common.h: the arch picks a definition that many files never use.
  std::string unused =
      "#if __CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900\n#define MAX_BLOCKS 2\n#else\n"
      "/* one block */\n#define MAX_BLOCKS \\\n    1\n#endif\n"
      "__global__ void k(float* out) { out[threadIdx.x] = 1.f; }\n";
  fs::path file = write("kl_unused_definition.cu", unused);
  CHECK(preprocessed(file, unused, "8.6") == preprocessed(file, unused, "9.0"));
  CHECK(parsed(file, unused, "8.6") == preprocessed(file, unused, "8.6"));

  std::string used = unused + "__global__ void __launch_bounds__(1024, MAX_BLOCKS) big(float* out) { out[0] = 0; }\n";
  fs::path used_file = write("kl_used_definition.cu", used);
  CHECK_FALSE(preprocessed(used_file, used, "8.6") == preprocessed(used_file, used, "9.0"));
  CHECK(preprocessed(used_file, used, "8.0") == preprocessed(used_file, used, "9.0"));
  CHECK(parsed(used_file, used, "8.6") == preprocessed(used_file, used, "8.6"));

  // Code beside the definition, or a directive other than a definition, still splits.
  for (const char* beside : {"__device__ int tier = 2;\n", "#include <cuda_fp16.h>\n", "#pragma message(\"x\")\n"}) {
    INFO(beside);
    std::string text = "#if __CUDA_ARCH__ >= 900\n#define MAX_BLOCKS 2\n" + std::string(beside) +
                       "#endif\n__global__ void k(float* out) { out[threadIdx.x] = 1.f; }\n";
    fs::path other = write("kl_definition_and_more.cu", text);
    CHECK_FALSE(preprocessed(other, text, "8.6") == preprocessed(other, text, "9.0"));
  }
}
