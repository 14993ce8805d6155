// Every snippet is real code where it is inserted, with its placeholders at their defaults:
//  - every CUDA snippet (a fragment inside its compile_wrapper) compiles with nvcc for sm_80 and
//    sm_90 (one nvcc per snippet with two -gencode flags, two at a time) without a warning;
//  - the real `kernel-lsp lint --format json` finds nothing in any of them, in a kernel project
//    whose build.toml lists 8.0 and 9.0;
//  - the build.toml template, with the torch-ext binding snippets as the files it names, lints
//    clean too; the other TOML snippets are TOML; the Python snippets parse (python3's ast).
// Without nvcc (or python3) those checks are skipped with a WARN that says so.
#include <toml++/toml.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "guidance/snippet_catalog.h"
#include "support/process.h"
#include "tests/unit/snippet_test_support.h"

namespace fs = std::filesystem;
using kl::guidance::Snippet;
using kl::guidance::SnippetLanguage;

namespace {

const kl::guidance::SnippetCatalog& catalog() { return kl::guidance::testing::repository_snippets(); }

fs::path find_nvcc() {
  for (const fs::path candidate : {fs::path("/usr/local/cuda/bin/nvcc"), fs::path(KL_NVCC)})
    if (!candidate.empty() && fs::exists(candidate)) return candidate;
  return kl::find_on_path("nvcc");
}

std::vector<const Snippet*> compiled_snippets() {
  std::vector<const Snippet*> out;
  for (const auto& s : catalog().all())
    if (s.language == SnippetLanguage::Cuda && s.compile) out.push_back(&s);
  return out;
}

struct TempDir {
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path path;
};

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// Runs `job(i)` for i in [0, count) on two threads (the machines that run this have two cores).
template <typename Job>
void run_two_at_a_time(size_t count, Job job) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) job(i);
  };
  std::thread other(worker);
  worker();
  other.join();
}

const char* kProjectHead = R"toml([general]
name = "snippets"
version = 1
edition = 5
license = "Apache-2.0"
backends = ["cuda"]

[torch]
src = []

[kernel.snippets]
backend = "cuda"
depends = ["torch"]
cuda-capabilities = ["8.0", "9.0"]
)toml";

// `kernel-lsp lint DIR --format json --severity info`: every finding, as JSON.
nlohmann::json lint(const fs::path& project) {
  kl::ProcessRequest request;
  request.program = KL_BINARY;
  request.args = {"lint", project.string(), "--format", "json", "--severity", "info", "--jobs", "2"};
  request.extra_environment = {{"KERNEL_LSP_RESOURCE_DIR", KL_SOURCE_DIR}};
  request.timeout = std::chrono::minutes(5);
  auto outcome = kl::run_process(request);
  REQUIRE(outcome);
  INFO("kernel-lsp lint exit " << outcome->exit_code << "\n" << outcome->stderr_text);
  REQUIRE((outcome->exit_code == 0 || outcome->exit_code == 1));
  return nlohmann::json::parse(outcome->stdout_text);
}

std::string describe_findings(const nlohmann::json& report) {
  std::string text;
  for (const auto& f : report["findings"])
    text += f["file"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + ": " +
            f["rule"].get<std::string>() + ": " + f["message"].get<std::string>() + "\n";
  return text;
}

}  // namespace

TEST_CASE("the snippet data has contexts, wrappers for fragments, and the snippets authors reach for") {
  for (const char* id : {"fused-add-rmsnorm", "rope-rotate-half", "rope-interleaved", "gated-activation",
                         "tiled-transpose", "launch-occupancy", "warp-sum", "block-sum", "pack-load-store",
                         "python-init", "pytest-float64", "benchmark-vs-copy", "build-toml-kernel-table"}) {
    INFO(id);
    CHECK(catalog().find(id));
  }
  for (const auto& s : catalog().all()) {
    INFO(s.id);
    CHECK_FALSE(s.contexts.empty());
    if (s.offered_in(kl::guidance::SnippetContext::CudaDeviceCode)) {
      CHECK_FALSE(s.compile_wrapper.empty());
      CHECK(s.compilation_unit().find(s.expanded) != std::string::npos);
    }
  }
}

TEST_CASE("every CUDA snippet compiles with nvcc for sm_80 and sm_90 when filled with its defaults") {
  const fs::path nvcc = find_nvcc();
  if (nvcc.empty()) {
    WARN(
        "SKIPPED: nvcc not found (/usr/local/cuda/bin/nvcc, KL_NVCC, PATH): CUDA snippets were NOT compiled");
    return;
  }
  const auto snippets = compiled_snippets();
  REQUIRE(snippets.size() >= 15);
  TempDir dir("kl-snippet-compile");
  std::vector<kl::Result<kl::ProcessOutcome>> outcomes(snippets.size(), kl::make_error("not run"));
  run_two_at_a_time(snippets.size(), [&](size_t i) {
    const fs::path source = dir.path / (snippets[i]->id + ".cu");
    write(source, snippets[i]->compilation_unit());
    kl::ProcessRequest request;
    request.program = nvcc;
    request.args = {"-std=c++17",
                    "-gencode=arch=compute_80,code=sm_80",
                    "-gencode=arch=compute_90,code=sm_90",
                    "-c",
                    "-o",
                    "/dev/null",
                    source.string()};
    request.timeout = std::chrono::minutes(5);
    outcomes[i] = kl::run_process(request);
  });
  for (size_t i = 0; i < snippets.size(); ++i) {
    INFO(snippets[i]->id);
    REQUIRE(outcomes[i]);
    INFO(outcomes[i]->stdout_text << outcomes[i]->stderr_text << "\n--- source ---\n"
                                  << snippets[i]->compilation_unit());
    CHECK(outcomes[i]->exit_code == 0);
    // A warning is what the template would teach; none may come with it.
    CHECK(outcomes[i]->stderr_text.find("warning") == std::string::npos);
    CHECK(outcomes[i]->stdout_text.find("warning") == std::string::npos);
  }
}

TEST_CASE("kernel-lsp lint finds nothing in any CUDA snippet (capabilities 8.0 and 9.0)") {
  if (find_nvcc().empty()) {
    WARN("SKIPPED: no CUDA toolkit (nvcc not found): CUDA snippets were NOT linted");
    return;
  }
  REQUIRE(fs::exists(KL_BINARY));
  TempDir project("kl-snippet-lint");
  std::string sources = "src = [\n";
  for (const Snippet* s : compiled_snippets()) {
    write(project.path / "snippets_cuda" / (s->id + ".cu"), s->compilation_unit());
    sources += "  \"snippets_cuda/" + s->id + ".cu\",\n";
  }
  write(project.path / "build.toml", kProjectHead + sources + "]\n");
  nlohmann::json report = lint(project.path);
  INFO(describe_findings(report));
  CHECK(report["summary"]["files_analysed"].get<size_t>() == compiled_snippets().size() + 1);
  CHECK(report["findings"].empty());
}

TEST_CASE("the build.toml template and the binding snippets make a project that lints clean") {
  if (find_nvcc().empty()) {
    WARN("SKIPPED: no CUDA toolkit (nvcc not found): the project template was NOT linted");
    return;
  }
  const Snippet* build_toml = catalog().find("build-toml");
  REQUIRE(build_toml);
  TempDir project("kl-snippet-project");
  write(project.path / "build.toml", build_toml->expanded);
  // The files the template names: the binding snippets, and a kernel from a kernel snippet.
  write(project.path / "torch-ext/torch_binding.cpp", catalog().find("torch-library-expand")->expanded);
  write(project.path / "torch-ext/torch_binding.h", catalog().find("torch-binding-header")->expanded);
  write(project.path / "my_kernel_cuda/my_kernel.cu", catalog().find("rmsnorm-row")->expanded);
  nlohmann::json report = lint(project.path);
  INFO(describe_findings(report));
  CHECK(report["findings"].empty());
}

TEST_CASE("TOML snippets are TOML; Python snippets parse") {
  for (const auto& s : catalog().all()) {
    if (s.language != SnippetLanguage::Toml) continue;
    INFO(s.id << ":\n" << s.expanded);
    // A key snippet goes inside a table; parse it there.
    const bool key = s.offered_in(kl::guidance::SnippetContext::BuildTomlKernel);
    CHECK_NOTHROW(toml::parse(key ? "[kernel.k]\n" + s.expanded : s.expanded));
  }
  const fs::path python = kl::find_on_path("python3");
  if (python.empty()) {
    WARN("SKIPPED: python3 not found: Python snippets were NOT parsed");
    return;
  }
  for (const auto& s : catalog().all()) {
    if (s.language != SnippetLanguage::Python) continue;
    kl::ProcessRequest request;
    request.program = python;
    request.args = {"-c", "import ast, sys; ast.parse(sys.stdin.read())"};
    request.stdin_text = s.expanded;
    auto outcome = kl::run_process(request);
    REQUIRE(outcome);
    INFO(s.id << ":\n" << outcome->stderr_text << "\n--- source ---\n" << s.expanded);
    CHECK(outcome->exit_code == 0);
  }
}
