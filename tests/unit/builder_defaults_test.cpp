// kernel-builder's default cuda-capabilities and compile flags as data (analyzers/data/builder_defaults.toml through
// BuilderDefaults): the shipped table loads, and a table that could pick the wrong list for some
// toolkit is refused with a location. project_locator_test checks the lists themselves.
#include "analyzers/project/builder_defaults.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using namespace kl::analyzers;

std::string shipped_text() {
  std::ifstream in(std::filesystem::path(KL_SOURCE_DIR) / "analyzers/data/builder_defaults.toml",
                   std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A valid [compile] table, for the tables built here.
const std::string kCompile =
    "[compile]\ndefines = [\"USE_CUDA=1\"]\ntorch-nvcc-flags = [\"--expt-relaxed-constexpr\"]\n"
    "stable-abi-define = \"TORCH_TARGET_VERSION\"\n";

std::vector<std::string> texts(const std::vector<Capability>& capabilities) {
  std::vector<std::string> out;
  for (const Capability& c : capabilities) out.push_back(c.text());
  return out;
}

}  // namespace

TEST_CASE("the shipped builder defaults load, and are the ones built in") {
  auto shipped = BuilderDefaults::parse(shipped_text(), "builder_defaults.toml");
  INFO((shipped ? "" : shipped.error().describe()));
  REQUIRE(shipped);
  for (auto [major, minor] : {std::pair{13, 0}, {12, 8}, {12, 6}, {11, 8}, {14, 2}})
    CHECK(texts(shipped->cuda_capabilities(major, minor)) ==
          texts(BuilderDefaults::builtin().cuda_capabilities(major, minor)));
  CHECK(shipped->compile_defines() == BuilderDefaults::builtin().compile_defines());
  CHECK(shipped->compile_defines() == std::vector<std::string>{"USE_CUDA=1", "CUDA_KERNEL"});
  CHECK(shipped->torch_nvcc_flags() ==
        std::vector<std::string>{"--expt-relaxed-constexpr", "--expt-extended-lambda"});
  CHECK(shipped->stable_abi_define() == "TORCH_TARGET_VERSION");
}

TEST_CASE("the first entry whose min-cuda the toolkit reaches applies") {
  auto defaults = BuilderDefaults::parse(
      "[[cuda-capabilities]]\nmin-cuda = \"12.8\"\ncapabilities = [\"10.0\"]\n"
      "[[cuda-capabilities]]\ncapabilities = [\"8.0+PTX\"]\n" + kCompile,
      "d.toml");
  REQUIRE(defaults);
  CHECK(texts(defaults->cuda_capabilities(12, 8)) == std::vector<std::string>{"10.0"});
  CHECK(texts(defaults->cuda_capabilities(13, 0)) == std::vector<std::string>{"10.0"});
  CHECK(texts(defaults->cuda_capabilities(12, 7)) == std::vector<std::string>{"8.0+PTX"});
}

TEST_CASE("broken builder defaults are refused with a location") {
  const std::string newest = "[[cuda-capabilities]]\nmin-cuda = \"13.0\"\ncapabilities = [\"7.5\"]\n";
  const std::string older = "[[cuda-capabilities]]\nmin-cuda = \"12.8\"\ncapabilities = [\"7.0\"]\n";
  const std::string fallback = "[[cuda-capabilities]]\ncapabilities = [\"7.0\"]\n" + kCompile;

  auto syntax = BuilderDefaults::parse("[[cuda-capabilities]\n", "d.toml");
  REQUIRE_FALSE(syntax);
  CHECK(syntax.error().location.has_value());

  CHECK_FALSE(BuilderDefaults::parse("", "d.toml"));
  CHECK(BuilderDefaults::parse(newest + fallback, "d.toml"));
  CHECK_FALSE(BuilderDefaults::parse(newest + older + kCompile, "d.toml"));  // no fallback
  auto order = BuilderDefaults::parse(older + newest + fallback, "d.toml");
  REQUIRE_FALSE(order);
  CHECK(order.error().describe().find("d.toml:4:") == 0);
  // A table after [compile] would land inside it: the fallback-not-last case puts [compile] last.
  const std::string fallback_only = "[[cuda-capabilities]]\ncapabilities = [\"7.0\"]\n";
  CHECK_FALSE(BuilderDefaults::parse(newest + fallback_only + older + kCompile, "d.toml"));  // fallback not last
  CHECK_FALSE(BuilderDefaults::parse(newest + fallback_only, "d.toml"));  // no [compile]
  CHECK_FALSE(BuilderDefaults::parse(newest + fallback_only + "[compile]\ndefines = []\n", "d.toml"));
  CHECK_FALSE(BuilderDefaults::parse(newest + "[[cuda-capabilities]]\ncapabilities = [\"seven\"]\n", "d.toml"));
  CHECK_FALSE(BuilderDefaults::parse(newest + "[[cuda-capabilities]]\ncapabilities = []\n", "d.toml"));
  CHECK_FALSE(BuilderDefaults::parse("[[cuda-capabilities]]\nmin-cuda = \"13\"\ncapabilities = [\"7.5\"]\n" +
                                         fallback,
                                     "d.toml"));
}
