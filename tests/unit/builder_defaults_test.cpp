// kernel-builder's default cuda-capabilities as data (analyzers/data/builder_defaults.toml through
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
}

TEST_CASE("the first entry whose min-cuda the toolkit reaches applies") {
  auto defaults = BuilderDefaults::parse(
      "[[cuda-capabilities]]\nmin-cuda = \"12.8\"\ncapabilities = [\"10.0\"]\n"
      "[[cuda-capabilities]]\ncapabilities = [\"8.0+PTX\"]\n",
      "d.toml");
  REQUIRE(defaults);
  CHECK(texts(defaults->cuda_capabilities(12, 8)) == std::vector<std::string>{"10.0"});
  CHECK(texts(defaults->cuda_capabilities(13, 0)) == std::vector<std::string>{"10.0"});
  CHECK(texts(defaults->cuda_capabilities(12, 7)) == std::vector<std::string>{"8.0+PTX"});
}

TEST_CASE("broken builder defaults are refused with a location") {
  const std::string newest = "[[cuda-capabilities]]\nmin-cuda = \"13.0\"\ncapabilities = [\"7.5\"]\n";
  const std::string older = "[[cuda-capabilities]]\nmin-cuda = \"12.8\"\ncapabilities = [\"7.0\"]\n";
  const std::string fallback = "[[cuda-capabilities]]\ncapabilities = [\"7.0\"]\n";

  auto syntax = BuilderDefaults::parse("[[cuda-capabilities]\n", "d.toml");
  REQUIRE_FALSE(syntax);
  CHECK(syntax.error().location.has_value());

  CHECK_FALSE(BuilderDefaults::parse("", "d.toml"));
  CHECK_FALSE(BuilderDefaults::parse(newest + older, "d.toml"));  // no fallback
  auto order = BuilderDefaults::parse(older + newest + fallback, "d.toml");
  REQUIRE_FALSE(order);
  CHECK(order.error().describe().find("d.toml:4:") == 0);
  CHECK_FALSE(BuilderDefaults::parse(newest + fallback + older, "d.toml"));  // fallback not last
  CHECK_FALSE(BuilderDefaults::parse(newest + "[[cuda-capabilities]]\ncapabilities = [\"seven\"]\n", "d.toml"));
  CHECK_FALSE(BuilderDefaults::parse(newest + "[[cuda-capabilities]]\ncapabilities = []\n", "d.toml"));
  CHECK_FALSE(BuilderDefaults::parse("[[cuda-capabilities]]\nmin-cuda = \"13\"\ncapabilities = [\"7.5\"]\n" +
                                         fallback,
                                     "d.toml"));
}
