// Torch-style kernel files: finding PyTorch's headers (analyzers/frontend/torch_headers), and the
// stand-in headers (analyzers/frontend/torch_standin) behaving like the real ones for the
// analysis. The fixtures in tests/fixtures/torch carry `// expect:` comments as the access
// fixtures do; with the stand-in every one must hold, and where PyTorch's headers are installed
// (Debian's libtorch-dev) both must give the same findings.
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/frontend/device_parser.h"
#include "analyzers/frontend/torch_headers.h"
#include "analyzers/pipeline/analysis.h"
#include "support/fs_paths.h"
#include "tests/unit/device_command_support.h"

using namespace kl::analyzers;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kFixtures = {"rmsnorm_dispatch.cu", "strided_elementwise.cu",
                                            "vectorized_copy.cu", "packed_accessor.cu",
                                            "library_registration.cu"};
// Checked with the stand-in only, and for no clang error at all (below): stable_abi.cu is written
// against the stable ABI (torch/csrc/stable, torch/headeronly), which PyTorch has from 2.9 on and
// the real headers CI has (1.13) predate; complex_scan.cu uses what older extensions rely on
// (THC, complex arithmetic, standard headers c10's bring in).
const std::vector<std::string> kParsedCleanFixtures = {"stable_abi.cu", "complex_scan.cu"};
const std::set<std::string> kAccessRules = {"uncoalesced-access", "misaligned-access"};

fs::path fixture(const std::string& name) { return fs::path(KL_FIXTURES_DIR) / "torch" / name; }

std::string read(const fs::path& p) {
  auto text = kl::read_file_text(p);
  REQUIRE(text.has_value());
  return *text;
}

// A scratch folder per test, removed at the end.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / ("kl_torch_test_" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path touch(const std::string& relative, const std::string& text = "") const {
    fs::create_directories((path / relative).parent_path());
    std::ofstream(path / relative) << text;
    return path / relative;
  }
};

// Sets (or unsets, for nullptr) an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> saved;
  ScopedEnv(std::string n, const char* value) : name(std::move(n)) {
    if (const char* old = std::getenv(name.c_str())) saved = old;
    if (value)
      setenv(name.c_str(), value, 1);
    else
      unsetenv(name.c_str());
  }
  ~ScopedEnv() {
    if (saved)
      setenv(name.c_str(), saved->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

// A query that looks only where a test points it: no python, no /usr/include.
TorchHeaderQuery isolated_query(const fs::path& debian_root) {
  TorchHeaderQuery q;
  q.ask_python = false;
  q.debian_root = debian_root;
  q.accept_cpu_only_debian = true;
  return q;
}

// One Analyzer per flag set, kept for the whole run: a FileAnalysis must not outlive the
// Analyzer that made it (access_model_test keeps a static one for the same reason).
FileAnalysis analyse_with(const std::vector<std::string>& flags, const fs::path& file) {
  static std::map<std::vector<std::string>, std::unique_ptr<Analyzer>> analyzers;
  auto& analyzer = analyzers[flags];
  if (!analyzer) {
    AnalysisSettings settings;
    settings.arch_override.push_back(*parse_capability("9.0"));
    settings.use_compile_commands = false;
    settings.extra_flags = flags;
    analyzer = std::make_unique<Analyzer>(settings);
  }
  return analyzer->analyze_source(file, read(file));
}

std::vector<std::string> standin_flags() {
  return torch_include_flags(TorchHeaders{}, default_torch_standin_dir());
}

// 1-based line -> the access rules its `// expect:` comment names (empty set: "clean").
std::map<uint32_t, std::set<std::string>> expectations(const std::string& text) {
  std::map<uint32_t, std::set<std::string>> out;
  static const std::regex expect(R"(//\s*expect:\s*(.*)$)");
  std::istringstream lines(text);
  uint32_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::smatch m;
    if (!std::regex_search(line, m, expect)) continue;
    std::set<std::string> rules;
    std::istringstream words(m.str(1));
    for (std::string w; words >> w;)
      if (kAccessRules.count(w)) rules.insert(w);
    out[number] = rules;
  }
  return out;
}

// "rule line:column message" for every finding except the frontend's own notes (missing
// headers differ between header sets by design).
std::vector<std::string> comparable(const FileAnalysis& a) {
  std::vector<std::string> out;
  for (const auto& f : a.findings) {
    if (f.rule_id == "frontend") continue;
    out.push_back(f.rule_id + " " + std::to_string(f.location.range.start.line + 1) + ":" +
                  std::to_string(f.location.range.start.column + 1) + " " + f.message);
  }
  return out;
}

}  // namespace

TEST_CASE("the stand-in folder is found and every header says what it is") {
  fs::path dir = default_torch_standin_dir();
  REQUIRE_FALSE(dir.empty());
  for (const char* header : {"torch/extension.h", "ATen/ATen.h", "ATen/Dispatch.h", "ATen/cuda/CUDAContext.h",
                             "c10/cuda/CUDAGuard.h", "c10/util/Half.h", "c10/util/BFloat16.h", "README.md"})
    CHECK(fs::exists(dir / header));
  int headers = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::string ext = entry.path().extension().string();
    if (ext != ".h" && ext != ".cuh") continue;
    ++headers;
    // The opening comment as one lower-case line of words.
    std::string head;
    for (char c : read(entry.path()).substr(0, 700)) {
      if (c == '/' || c == '\n') c = ' ';
      if (c == ' ' && !head.empty() && head.back() == ' ') continue;
      head += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    INFO(entry.path().string() << ": " << head);
    CHECK(head.find("stand-in") != std::string::npos);
    CHECK(head.find("for analysis only") != std::string::npos);
    CHECK(head.find("headers win") != std::string::npos);  // "real (PyTorch) headers win when found"
  }
  CHECK(headers > 30);
}

TEST_CASE("explicit folders win and are taken as given") {
  TempDir tmp("explicit");
  tmp.touch("torch/include/ATen/ATen.h");
  auto q = isolated_query(tmp.path / "no-debian");
  q.explicit_dirs = {tmp.path / "torch" / "include", tmp.path / "missing"};
  TorchHeaders found = find_torch_headers(q);
  REQUIRE(found.found());
  CHECK(found.found_by == "torchIncludePath");
  REQUIRE(found.include_dirs.size() == 1);
  CHECK(found.include_dirs[0] == fs::weakly_canonical(tmp.path / "torch" / "include"));

  q.explicit_dirs = {tmp.path / "missing"};
  TorchHeaders none = find_torch_headers(q);
  CHECK_FALSE(none.found());
  REQUIRE_FALSE(none.notes.empty());
  CHECK(none.notes[0].find("torchIncludePath") != std::string::npos);
}

TEST_CASE("Torch_DIR: the include folders of the prefix above the CMake package") {
  TempDir tmp("torch_dir");
  tmp.touch("prefix/include/ATen/ATen.h");
  tmp.touch("prefix/include/torch/csrc/api/include/torch/version.h",
            "#define TORCH_VERSION_MAJOR 2\n#define TORCH_VERSION_MINOR 4\n");
  fs::create_directories(tmp.path / "prefix" / "share" / "cmake" / "Torch");
  ScopedEnv torch_dir("Torch_DIR", (tmp.path / "prefix" / "share" / "cmake" / "Torch").c_str());
  ScopedEnv prefix("TORCH_INSTALL_PREFIX", nullptr);
  TorchHeaders found = find_torch_headers(isolated_query(tmp.path / "no-debian"));
  REQUIRE(found.found());
  CHECK(found.found_by == "Torch_DIR");
  CHECK(found.version == "2.4");
  REQUIRE(found.include_dirs.size() == 2);
  CHECK(found.include_dirs[0] == fs::weakly_canonical(tmp.path / "prefix" / "include"));
  CHECK(found.include_dirs[1] == fs::weakly_canonical(tmp.path / "prefix/include/torch/csrc/api/include"));
}

TEST_CASE("TORCH_INSTALL_PREFIX, and a prefix without ATen is passed over with a note") {
  TempDir tmp("prefix");
  tmp.touch("good/include/ATen/ATen.h");
  fs::create_directories(tmp.path / "bad" / "include");
  ScopedEnv torch_dir("Torch_DIR", nullptr);
  {
    ScopedEnv prefix("TORCH_INSTALL_PREFIX", (tmp.path / "good").c_str());
    TorchHeaders found = find_torch_headers(isolated_query(tmp.path / "no-debian"));
    REQUIRE(found.found());
    CHECK(found.found_by == "TORCH_INSTALL_PREFIX");
    CHECK(found.include_dirs.size() == 1);  // no torch/csrc/api/include there
  }
  ScopedEnv prefix("TORCH_INSTALL_PREFIX", (tmp.path / "bad").c_str());
  TorchHeaders none = find_torch_headers(isolated_query(tmp.path / "no-debian"));
  CHECK_FALSE(none.found());
  REQUIRE(none.notes.size() == 1);
  CHECK(none.notes[0].find("TORCH_INSTALL_PREFIX") != std::string::npos);
}

TEST_CASE("the Python torch's include paths, from a stand-in python that prints them") {
  TempDir tmp("python");
  tmp.touch("site/torch/include/ATen/ATen.h");
  fs::create_directories(tmp.path / "site/torch/include/torch/csrc/api/include");
  fs::path python = tmp.touch("fake_python.sh",
                              "#!/bin/sh\necho " + (tmp.path / "site/torch/include").string() + "\necho " +
                                  (tmp.path / "site/torch/include/torch/csrc/api/include").string() +
                                  "\necho /nonexistent/python/include\n");
  fs::permissions(python, fs::perms::owner_all);
  ScopedEnv torch_dir("Torch_DIR", nullptr);
  ScopedEnv prefix("TORCH_INSTALL_PREFIX", nullptr);
  auto q = isolated_query(tmp.path / "no-debian");
  q.ask_python = true;
  q.python = python;
  TorchHeaders found = find_torch_headers(q);
  REQUIRE(found.found());
  CHECK(found.found_by == "fake_python.sh (torch)");
  CHECK(found.include_dirs.size() == 2);  // the folder that does not exist is dropped

  fs::path failing = tmp.touch("no_torch.sh", "#!/bin/sh\nexit 1\n");
  fs::permissions(failing, fs::perms::owner_all);
  q.python = failing;
  TorchHeaders none = find_torch_headers(q);
  CHECK_FALSE(none.found());
  REQUIRE_FALSE(none.notes.empty());
  CHECK(none.notes.back().find("could not import torch") != std::string::npos);
}

TEST_CASE("Debian's layout: the API folder and Python's include folder, not the root itself") {
  TempDir tmp("debian");
  tmp.touch("root/ATen/ATen.h");
  tmp.touch("root/torch/csrc/api/include/torch/version.h",
            "#define TORCH_VERSION_MAJOR 1\n#define TORCH_VERSION_MINOR 13\n");
  tmp.touch("root/python3.9/Python.h");
  tmp.touch("root/python3.11/Python.h");
  ScopedEnv torch_dir("Torch_DIR", nullptr);
  ScopedEnv prefix("TORCH_INSTALL_PREFIX", nullptr);
  TorchHeaders found = find_torch_headers(isolated_query(tmp.path / "root"));
  REQUIRE(found.found());
  CHECK(found.found_by == "libtorch-dev");
  CHECK(found.version == "1.13");
  REQUIRE(found.include_dirs.size() == 3);  // a scratch root is not a default system folder
  CHECK(found.include_dirs[1].filename() == "include");
  CHECK(found.include_dirs[2].filename() == "python3.11");
  CHECK(found.describe().find("PyTorch 1.13 headers from libtorch-dev") == 0);

  if (!fs::exists("/usr/include/ATen/ATen.h")) {
    WARN("SKIPPED part: Debian's libtorch-dev is not installed (no /usr/include/ATen/ATen.h)");
    return;
  }
  TorchHeaders real = find_torch_headers(isolated_query("/usr/include"));
  REQUIRE(real.found());
  CHECK(real.found_by == "libtorch-dev");
  for (const auto& dir : real.include_dirs) CHECK(dir != fs::path("/usr/include"));
}

TEST_CASE("a CPU-only libtorch-dev is passed over for the stand-in unless asked for") {
  TempDir tmp("cpu-only");
  tmp.touch("root/ATen/ATen.h");
  tmp.touch("root/torch/csrc/api/include/torch/version.h");
  ScopedEnv torch_dir("Torch_DIR", nullptr);
  ScopedEnv prefix("TORCH_INSTALL_PREFIX", nullptr);
  TorchHeaderQuery q = isolated_query(tmp.path / "root");
  q.accept_cpu_only_debian = false;
  TorchHeaders passed_over = find_torch_headers(q);
  CHECK_FALSE(passed_over.found());
  REQUIRE_FALSE(passed_over.notes.empty());
  CHECK(passed_over.notes.back().find("built without CUDA") != std::string::npos);
  tmp.touch("root/c10/cuda/impl/cuda_cmake_macros.h");
  CHECK(find_torch_headers(q).found_by == "libtorch-dev");
}

TEST_CASE("include flags: found headers or the stand-in, and a project's own torch is noticed") {
  TempDir tmp("flags");
  tmp.touch("t/ATen/ATen.h");
  TorchHeaders found;
  found.include_dirs = {"/a", "/b"};
  CHECK(torch_include_flags(found, "/standin") ==
        std::vector<std::string>{"-isystem", "/a", "-isystem", "/b"});
  CHECK(torch_include_flags(TorchHeaders{}, "/standin") == std::vector<std::string>{"-isystem", "/standin"});
  CHECK(torch_include_flags(TorchHeaders{}, "").empty());
  std::string dir = (tmp.path / "t").string();
  CHECK(include_flags_reach_torch({"-DX", "-I" + dir}));
  CHECK(include_flags_reach_torch({"-isystem", dir}));
  CHECK(include_flags_reach_torch({"-idirafter" + dir}));
  CHECK_FALSE(include_flags_reach_torch({"-I", tmp.path.string(), "-include", dir}));
}

TEST_CASE("torch fixtures: every expectation holds with the stand-in") {
  std::vector<std::string> all = kFixtures;
  all.insert(all.end(), kParsedCleanFixtures.begin(), kParsedCleanFixtures.end());
  for (const auto& name : all) {
    INFO(name);
    FileAnalysis a = analyse_with(standin_flags(), fixture(name));
    CHECK(a.missing_headers.empty());
    for (const auto& f : a.findings) {
      INFO(f.message);
      CHECK(f.rule_id != "frontend");  // no missing header, no pile of clang errors
    }
    CHECK(a.facts.accesses.size() > 0);
    auto expected = expectations(read(fixture(name)));
    REQUIRE_FALSE(expected.empty());
    std::map<uint32_t, std::set<std::string>> got;
    for (const auto& f : a.findings)
      if (kAccessRules.count(f.rule_id)) got[f.location.range.start.line + 1].insert(f.rule_id);
    for (const auto& [line, rules] : got) {
      INFO("line " << line);
      CHECK(expected.count(line) == 1);  // a finding only where the fixture expects one
    }
    for (const auto& [line, rules] : expected) {
      INFO("line " << line);
      CHECK(got[line] == rules);
    }
  }
}

TEST_CASE("torch fixtures: the stand-in gives the findings PyTorch's own headers give") {
  TorchHeaderQuery q;
  q.ask_python = false;
  q.accept_cpu_only_debian = true;  // Debian 12's CPU-only headers are the real ones CI has
  TorchHeaders real = find_torch_headers(q);
  if (!real.found()) {
    WARN(
        "SKIPPED: no PyTorch headers found (install libtorch-dev, or set Torch_DIR): "
        "the stand-in was NOT compared with the real headers");
    return;
  }
  WARN("comparing with " << real.describe());
  // Known gap, not yet explained: with Debian's PyTorch 1.13 headers, kernels
  // dispatched through AT_DISPATCH_FLOATING_TYPES_AND_HALF are left uninstantiated (the model
  // sees only the template, `scalar_t` of unknown size), while the stand-in instantiates them per
  // dtype. For those fixtures the test asserts what differs, so that a fix on either side shows.
  const std::set<std::string> and_half_dispatch = {"packed_accessor.cu", "rmsnorm_dispatch.cu"};
  for (const auto& name : kFixtures) {
    INFO(name);
    FileAnalysis with_standin = analyse_with(standin_flags(), fixture(name));
    FileAnalysis with_real = analyse_with(torch_include_flags(real, {}), fixture(name));
    if (and_half_dispatch.count(fs::path(name).filename().string())) {
      WARN("known gap: " << name << ": the real 1.13 headers leave the AND_HALF dispatch uninstantiated");
      CHECK(with_standin.facts.accesses.size() > with_real.facts.accesses.size());
      continue;
    }
    CHECK(comparable(with_standin) == comparable(with_real));
    CHECK(with_standin.facts.accesses.size() == with_real.facts.accesses.size());
  }
}

// The pipeline's frontend note needs many clang errors; a stand-in that misses one API a file
// calls gives one error on the host line that calls it, and no note. So these fixtures are parsed
// here directly: not one clang error, for the oldest and the newest arch, in C++17 and in C++20
// (projects that build with -std=c++20 see keywords such as `requires` that C++17 does not), and
// in the stand-in's own headers as much as in the fixture.
TEST_CASE("parsed-clean fixtures: the stand-in declares every API they call") {
  for (const auto& name : kParsedCleanFixtures) {
    const fs::path file = fixture(name);
    const std::string text = read(file);
    ClangCommandInputs inputs = kl::analyzers::testing::command_inputs_for(file);
    for (const char* standard : {"-std=c++17", "-std=c++20"}) {
      // -I, not the -isystem of a lint: errors in system headers are not reported, and an error
      // in the stand-in itself must fail this test too.
      inputs.extra_flags = {"-I", default_torch_standin_dir().string(), standard};
      for (const char* arch : {"7.5", "12.0"}) {
        INFO(name << " for " << arch << " with " << standard);
        auto outcome = parse_device_side(device_parse_command(inputs, *parse_capability(arch)), file, text,
                                         [](clang::ASTContext&, const SourceView&) {});
        REQUIRE(outcome);
        CHECK(outcome->missing_headers.empty());
        for (const auto& error : outcome->errors)
          FAIL_CHECK(error.location.file << ":" << error.location.range.start.line + 1 << ": " << error.message);
      }
    }
  }
}
