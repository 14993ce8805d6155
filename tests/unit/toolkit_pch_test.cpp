// The shared PCH of the toolkit headers: a parse that starts from it finds what a parse without
// it finds; it is built once per command and reused; a stale or corrupt one is rebuilt or
// bypassed, never trusted. Real clang, real CUDA headers when installed, real reference kernels.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/frontend/toolkit_pch.h"
#include "analyzers/pipeline/analysis.h"
#include "tests/unit/device_command_support.h"

using namespace kl::analyzers;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("kl_toolkit_pch_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> command_for(const fs::path& file, const char* arch) {
  return device_parse_command(kl::analyzers::testing::command_inputs_for(file), *parse_capability(arch));
}

// Findings as comparable text (rule, place, message).
std::vector<std::string> findings_of(const FileAnalysis& analysis) {
  std::vector<std::string> out;
  for (const auto& f : analysis.findings)
    out.push_back(f.rule_id + " " + f.location.file + ":" + std::to_string(f.location.range.start.line) + ":" +
                  std::to_string(f.location.range.start.column) + " " + f.message);
  return out;
}

FileAnalysis analyse(const fs::path& file, bool shared_pch, const fs::path& pch_dir) {
  AnalysisSettings settings;
  settings.shared_pch = shared_pch;
  settings.pch_dir = pch_dir;
  settings.use_compile_commands = false;
  for (const char* arch : {"7.5", "8.0", "9.0"}) settings.arch_override.push_back(*parse_capability(arch));
  Analyzer analyzer(settings);
  return analyzer.analyze_source(file, read(file));
}

std::vector<fs::path> reference_sources() {
  std::vector<fs::path> sources;
  fs::path root = fs::path(KL_SOURCE_DIR) / "kernels";
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.path().extension() == ".cu") sources.push_back(entry.path());
  std::sort(sources.begin(), sources.end());
  return sources;
}

size_t pch_files(const fs::path& dir) {
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) n += entry.path().extension() == ".pch";
  return n;
}

}  // namespace

TEST_CASE("findings are the same with and without the shared toolkit PCH") {
  fs::path dir = fresh_dir("same");
  std::vector<fs::path> sources = reference_sources();
  REQUIRE(sources.size() >= 4);
  for (const fs::path& source : sources) {
    INFO(source.string());
    FileAnalysis with = analyse(source, true, dir);
    FileAnalysis without = analyse(source, false, dir);
    CHECK(findings_of(with) == findings_of(without));
    CHECK(with.coverage == without.coverage);
  }
  CHECK(pch_files(dir) >= 1);  // it was used, not silently skipped
}

TEST_CASE("one PCH per command, reused, rebuilt when an input changed") {
  fs::path dir = fresh_dir("reuse");
  fs::path file = dir / "k.cu";
  ToolkitPchStore store(dir);
  auto first = store.get(command_for(file, "9.0"));
  REQUIRE(first);
  auto built_at = fs::last_write_time(*first);
  auto again = store.get(command_for(dir / "other.cu", "9.0"));  // another file, same command
  REQUIRE(again);
  CHECK(*again == *first);
  CHECK(fs::last_write_time(*again) == built_at);
  auto other_arch = store.get(command_for(file, "8.0"));
  REQUIRE(other_arch);
  CHECK(*other_arch != *first);

  // An input recorded with another size than it has now: the PCH is stale and rebuilt.
  fs::path inputs = first->parent_path() / (first->stem().string() + ".inputs");
  std::string list = read(inputs);
  std::ofstream(inputs) << "1 1 " << list.substr(list.find(' ', list.find(' ') + 1) + 1);
  auto rebuilt = store.get(command_for(file, "9.0"));
  REQUIRE(rebuilt);
  CHECK(read(inputs) == list);
}

TEST_CASE("a PCH clang refuses is bypassed and replaced, with the same findings") {
  fs::path dir = fresh_dir("corrupt");
  fs::path source = reference_sources().front();
  FileAnalysis reference = analyse(source, false, dir);
  (void)analyse(source, true, dir);  // builds the wrapper's PCHs
  (void)analyse(source, true, dir);  // and those of the file's opening includes
  auto corrupt_count = [&] {
    size_t n = 0;
    for (const auto& entry : fs::directory_iterator(dir))
      n += entry.path().extension() == ".pch" && read(entry.path()).find("xxxx") == 0;
    return n;
  };
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".pch") continue;
    auto size = fs::file_size(entry.path());
    auto time = fs::last_write_time(entry.path());
    std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << std::string(size, 'x');
    fs::last_write_time(entry.path(), time);
  }
  size_t corrupted = corrupt_count();
  REQUIRE(corrupted >= 2);
  FileAnalysis after = analyse(source, true, dir);
  CHECK(findings_of(after) == findings_of(reference));
  CHECK(corrupt_count() < corrupted);  // the ones it tried were refused, so removed
  FileAnalysis repaired = analyse(source, true, dir);  // the rejected PCH was rebuilt
  CHECK(findings_of(repaired) == findings_of(reference));
}

TEST_CASE("a file's opening system includes get a PCH of their own on their second request") {
  fs::path dir = fresh_dir("opening_includes");
  fs::path file = dir / "k.cu";
  std::string text = "// a kernel\n#include <cooperative_groups.h>\n#include <cuda_fp16.h>\n#include \"local.h\"\n";
  std::vector<std::string> argv = command_for(file, "9.0");
  ToolkitPchStore store(dir);
  auto base = store.get(argv);
  REQUIRE(base);
  auto first = store.get(argv, text);  // first request: the wrapper's PCH, the set marked as wanted
  REQUIRE(first);
  CHECK(*first == *base);
  auto second = store.get(argv, text);
  REQUIRE(second);
  CHECK(*second != *base);
  // Its main file holds the opening includes, and the quoted one, which ends them, is not there.
  std::string main = read(second->parent_path() / (second->stem().string() + ".cu"));
  CHECK(main == "#include <cooperative_groups.h>\n#include <cuda_fp16.h>\n");
  // Another file that opens with the same includes shares it.
  auto shared = store.get(command_for(dir / "other.cu", "9.0"), "#include <cooperative_groups.h>\n#include <cuda_fp16.h>\nint x;\n");
  REQUIRE(shared);
  CHECK(*shared == *second);
}

TEST_CASE("an opening include found through -I gets no PCH of its own") {
  fs::path dir = fresh_dir("opening_user_header");
  fs::create_directories(dir / "inc");
  std::ofstream(dir / "inc" / "project.h") << "#pragma once\nint project_value();\n";
  std::vector<std::string> argv = command_for(dir / "k.cu", "9.0");
  argv.insert(argv.end() - 1, "-I" + (dir / "inc").string());
  std::string text = "#include <project.h>\n";
  ToolkitPchStore store(dir / "pch");
  auto base = store.get(argv);
  REQUIRE(base);
  for (int request = 0; request < 3; ++request) {
    auto pch = store.get(argv, text);
    REQUIRE(pch);
    CHECK(*pch == *base);
  }
}

TEST_CASE("findings are the same when a file's opening includes come precompiled") {
  fs::path dir = fresh_dir("opening_same");
  for (const fs::path& source : reference_sources()) {
    INFO(source.string());
    FileAnalysis without = analyse(source, false, dir);
    for (int round = 0; round < 3; ++round) {  // marked, built, used
      FileAnalysis with = analyse(source, true, dir);
      CHECK(findings_of(with) == findings_of(without));
    }
  }
  fs::path file = dir / "groups.cu";
  std::ofstream(file) << "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
                         "namespace cg = cooperative_groups;\n"
                         "__global__ void strided(float* x, int ld) {\n"
                         "  auto warp = cg::tiled_partition<32>(cg::this_thread_block());\n"
                         "  x[threadIdx.x * ld] = cg::reduce(warp, x[0], cg::plus<float>());\n}\n"
                         "void launch(float* x, int ld) { strided<<<1, 32>>>(x, ld); }\n";
  FileAnalysis without = analyse(file, false, dir);
  bool uncoalesced = false;
  for (const auto& f : without.findings) uncoalesced = uncoalesced || f.rule_id == "uncoalesced-access";
  CHECK(uncoalesced);
  for (int round = 0; round < 3; ++round) CHECK(findings_of(analyse(file, true, dir)) == findings_of(without));
}

TEST_CASE("a preamble built on a toolkit PCH survives that PCH being replaced") {
  // The server's preambles start from the toolkit PCH; when that PCH is rebuilt or evicted,
  // the preamble cannot load, and the parse must fall back, not report clang's complaint.
  fs::path dir = fresh_dir("chained");
  fs::path file = dir / "k.cu";
  AnalysisSettings settings;
  settings.pch_dir = dir / "pch";
  settings.cache_parses = true;
  settings.use_compile_commands = false;
  settings.arch_override = {*parse_capability("9.0")};
  std::string text = "#include <cooperative_groups.h>\n#include \"local.h\"\n"
                     "__global__ void strided(float* x, int ld) { x[threadIdx.x * ld] = 1.f; }\n"
                     "void launch(float* x, int ld) { strided<<<1, 32>>>(x, ld); }\n";
  std::ofstream(dir / "local.h") << "#pragma once\nconstexpr int kLocal = 1;\n";
  Analyzer analyzer(settings);
  std::vector<std::string> expected;
  for (int round = 0; round < 3; ++round) expected = findings_of(analyzer.analyze_source(file, text));
  REQUIRE_FALSE(expected.empty());
  for (const auto& entry : fs::directory_iterator(settings.pch_dir))
    if (entry.path().extension() == ".pch") std::ofstream(entry.path(), std::ios::trunc) << "not a PCH";
  std::string edited = text;
  edited.insert(edited.find("x[threadIdx.x"), " ");
  std::vector<std::string> after = findings_of(analyzer.analyze_source(file, edited));
  REQUIRE(after.size() == expected.size());
  for (const auto& finding : after) CHECK(finding.find("k.cu:2:") != std::string::npos);  // 0-based
  for (const auto& finding : after) CHECK(finding.rfind("frontend", 0) != 0);
}

TEST_CASE("a command that force-includes a user header gets no PCH") {
  fs::path dir = fresh_dir("user_include");
  std::vector<std::string> argv = command_for(dir / "k.cu", "9.0");
  argv.insert(argv.end() - 1, {"-include", "my_project_prelude.h"});
  ToolkitPchStore store(dir);
  CHECK_FALSE(store.get(argv));
}

TEST_CASE("every language standard the user passes parses, with the same findings as without a PCH") {
  // Host code clang 19 crashes on under C++20 and later when CUDA's headers come from a PCH.
  fs::path dir = fresh_dir("standards");
  fs::path file = dir / "host_delete.cu";
  std::ofstream(file) << "void release(float* p) { delete p; }\n"
                         "__global__ void strided(float* x, int ld) { x[threadIdx.x * ld] = 1.f; }\n"
                         "void launch(float* x, int ld) { strided<<<1, 32>>>(x, ld); }\n";
  for (const char* standard : {"-std=c++17", "-std=c++20", "-std=gnu++20", "-std=c++23"}) {
    INFO(standard);
    AnalysisSettings settings;
    settings.pch_dir = dir / "pch";
    settings.use_compile_commands = false;
    settings.extra_flags = {standard};
    settings.arch_override = {*parse_capability("9.0")};
    Analyzer with_pch(settings);
    FileAnalysis with = with_pch.analyze_source(file, read(file));
    settings.shared_pch = false;
    Analyzer without_pch(settings);
    FileAnalysis without = without_pch.analyze_source(file, read(file));
    CHECK(findings_of(with) == findings_of(without));
    bool uncoalesced = false;
    for (const auto& f : with.findings) {
      CHECK(f.rule_id != "frontend");
      uncoalesced = uncoalesced || f.rule_id == "uncoalesced-access";
    }
    CHECK(uncoalesced);  // the kernel was analysed, not just survived
  }
  std::vector<std::string> argv = command_for(file, "9.0");
  argv.insert(argv.end() - 1, "-std=c++20");
  ToolkitPchStore store(dir / "store");
  CHECK_FALSE(store.get(argv));
}

TEST_CASE("clang's deferred errors in the user's code are reported through a PCH and a preamble") {
  // A PCH keeps only the user's entries of the lists Sema checks at the end of a parse
  // (header_decl_lists.h), and only PCH builds trim them: errors that CUDA defers until a
  // __host__ __device__ function of the file is known to be compiled for the device must still
  // come out, as without any PCH. (Such errors in a header the preamble holds are lost, as in
  // clangd: clang does not write deferred diagnostics into a PCH.)
  fs::path dir = fresh_dir("deferred");
  fs::path file = dir / "deferred.cu";
  std::string text = "#include <cuda_runtime.h>\n#include <cstdint>\nvoid host_only(int);\n";
  for (int i = 0; i < 24; ++i)
    text += "__host__ __device__ void both_" + std::to_string(i) + "(int v) { host_only(v); }\n";
  text += "__global__ void calls_all(int v) {\n";
  for (int i = 0; i < 24; ++i) text += "  both_" + std::to_string(i) + "(v);\n";
  text += "}\n";
  std::ofstream(file) << text;
  AnalysisSettings settings;
  settings.pch_dir = dir / "pch";
  settings.use_compile_commands = false;
  settings.arch_override = {*parse_capability("9.0")};
  settings.shared_pch = false;
  size_t expected = Analyzer(settings).analyze_source(file, text).clang_errors;
  REQUIRE(expected == 24);
  settings.shared_pch = true;
  for (int round = 0; round < 3; ++round) {  // the opening includes: marked, built, used
    INFO("toolkit PCH, round " << round);
    CHECK(Analyzer(settings).analyze_source(file, text).clang_errors == expected);
  }
  CHECK(pch_files(settings.pch_dir) >= 2);
  settings.cache_parses = true;  // preambles, as the server makes them
  Analyzer server_like(settings);
  for (int round = 0; round < 3; ++round) {
    INFO("preamble, round " << round);
    CHECK(server_like.analyze_source(file, text).clang_errors == expected);
  }
}
