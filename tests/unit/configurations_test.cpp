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
#include "analyzers/pipeline/analysis.h"
#include "tests/unit/analysis_test_support.h"

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

ClangCommandInputs command_for(const fs::path& file) {
  ClangCommandInputs inputs;
  inputs.file = file;
  if (auto toolkit = find_cuda_toolkit(std::nullopt)) inputs.cuda_root = toolkit->root;
  inputs.shim_dir = default_shim_dir();
  inputs.resource_dir = default_resource_dir();
  return inputs;
}

Capability cap(const char* text) { return *parse_capability(text); }

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
