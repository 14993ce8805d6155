// Every CUDA snippet, with its placeholders at their defaults, compiles with nvcc for sm_90:
// what a user gets after pressing Tab through a snippet is a valid translation unit. Skips with
// a WARN when nvcc is absent (CPU-only machines without the toolkit).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "guidance/snippet_catalog.h"
#include "support/process.h"

namespace guidance = kl::guidance;

namespace fs = std::filesystem;

namespace {

fs::path find_nvcc() {
  for (const fs::path candidate : {fs::path("/usr/local/cuda/bin/nvcc"), fs::path(KL_NVCC)})
    if (!candidate.empty() && fs::exists(candidate)) return candidate;
  return kl::find_on_path("nvcc");
}

}  // namespace

TEST_CASE("every CUDA snippet compiles with nvcc (sm_90) when filled with its defaults") {
  auto loaded = kl::guidance::SnippetCatalog::load(fs::path(KL_SOURCE_DIR) / "snippets");
  if (!loaded) FAIL(loaded.error().describe());
  const fs::path nvcc = find_nvcc();
  if (nvcc.empty()) {
    WARN("nvcc not found (/usr/local/cuda/bin/nvcc, KL_NVCC, PATH): CUDA snippets were NOT compiled");
    return;
  }
  const fs::path dir = fs::temp_directory_path() / ("kl-snippet-compile-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  size_t compiled = 0;
  for (const auto& snippet : loaded->all()) {
    if (snippet.language != kl::guidance::SnippetLanguage::Cuda || !snippet.compile) continue;
    SECTION(snippet.id) {
      const fs::path source = dir / (snippet.id + ".cu");
      {
        std::ofstream(source) << snippet.expanded;
      }
      kl::ProcessRequest request;
      request.program = nvcc;
      request.args = {"-std=c++17",   "-gencode=arch=compute_90,code=sm_90", "-c", "-o", "/dev/null",
                      source.string()};
      request.timeout = std::chrono::minutes(5);
      auto outcome = kl::run_process(request);
      REQUIRE(outcome);
      INFO(snippet.id << ":\n"
                      << outcome->stdout_text << outcome->stderr_text << "\n--- source ---\n"
                      << snippet.expanded);
      CHECK(outcome->exit_code == 0);
      // Warnings are what the template teaches; none should come with it.
      CHECK(outcome->stderr_text.find("warning") == std::string::npos);
    }
    ++compiled;
  }
  CHECK(compiled >= 6);
  fs::remove_all(dir);
}
