// find_build_toml, builder_default_capabilities and capabilities_for_source, read as a
// specification of which capabilities a source file is checked against.
#include "analyzers/project/project_locator.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/unit/scratch_tree.h"

namespace {

using namespace kl::analyzers;
namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(KL_FIXTURES_DIR) / "build_toml";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> texts(const std::vector<Capability>& capabilities) {
  std::vector<std::string> out;
  for (const Capability& c : capabilities) out.push_back(c.text());
  return out;
}

std::vector<std::string> texts(const std::vector<CapabilityEntry>& entries) {
  std::vector<std::string> out;
  for (const CapabilityEntry& e : entries) out.push_back(e.text);
  return out;
}

// A fresh folder whose files are one blank line each (only their places matter here).
struct TempTree : kl::testing::ScratchTree {
  TempTree() : ScratchTree("kl-locator") {}
  fs::path file(const fs::path& relative) const { return write(relative, "\n"); }
};

BuildConfig rmsnorm_config() {
  const fs::path path = kFixtures / "rmsnorm/build.toml";
  BuildConfigParse parsed = parse_build_toml(path, read_text(path));
  REQUIRE(parsed.problems.empty());
  REQUIRE(parsed.config);
  return *parsed.config;
}

}  // namespace

TEST_CASE("find_build_toml: the nearest build.toml in the file's folder or above") {
  TempTree tree;
  const fs::path top = tree.file("kernel/build.toml");
  const fs::path source = tree.file("kernel/csrc/deep/er/rmsnorm.cu");
  const fs::path nested = tree.file("kernel/vendored/build.toml");
  const fs::path vendored_source = tree.file("kernel/vendored/src/x.cu");
  fs::create_directories(tree.root() / "kernel/build.toml.d");

  CHECK(find_build_toml(source) == top);
  CHECK(find_build_toml(tree.root() / "kernel/build.toml") == top);  // itself
  CHECK(find_build_toml(vendored_source) == nested);                 // the nearest wins
  CHECK(find_build_toml(tree.root() / "kernel/csrc") == top);        // a folder
  CHECK(find_build_toml(tree.root() / "kernel/csrc/not-yet-saved.cu") == top);

  // A folder named build.toml is not a build.toml.
  fs::create_directories(tree.root() / "odd/build.toml");
  const fs::path odd_source = tree.file("odd/src/a.cu");
  auto odd = find_build_toml(odd_source);
  CHECK((!odd || odd->string().rfind(tree.root().string(), 0) != 0));

  // Up to the file-system root and no further (a build.toml above the temp folder would be a
  // stray file on this machine, not part of the tree).
  const fs::path lonely = tree.file("elsewhere/a/b.cu");
  auto found = find_build_toml(lonely);
  CHECK((!found || found->string().rfind(tree.root().string(), 0) != 0));
}

TEST_CASE("find_build_toml accepts relative paths") {
  TempTree tree;
  const fs::path top = tree.file("proj/build.toml");
  tree.file("proj/k/a.cu");
  const fs::path saved = fs::current_path();
  fs::current_path(tree.root() / "proj");
  auto found = find_build_toml("k/a.cu");
  fs::current_path(saved);
  REQUIRE(found);
  CHECK(fs::equivalent(*found, top));
}

TEST_CASE("builder default capabilities depend on the CUDA version") {
  const std::vector<std::string> cuda13 = {"7.5", "8.0",  "8.6",  "8.7",  "8.9",
                                           "9.0", "10.0", "11.0", "12.0", "12.1+PTX"};
  const std::vector<std::string> cuda128 = {"7.0", "7.2", "7.5",  "8.0",  "8.6",     "8.7",
                                            "8.9", "9.0", "10.0", "10.1", "12.0+PTX"};
  const std::vector<std::string> older = {"7.0", "7.2", "7.5", "8.0",
                                          "8.6", "8.7", "8.9", "9.0+PTX"};
  CHECK(texts(builder_default_capabilities(13, 0)) == cuda13);
  CHECK(texts(builder_default_capabilities(13, 1)) == cuda13);
  CHECK(texts(builder_default_capabilities(14, 0)) == cuda13);
  CHECK(texts(builder_default_capabilities(12, 8)) == cuda128);
  CHECK(texts(builder_default_capabilities(12, 9)) == cuda128);
  CHECK(texts(builder_default_capabilities(12, 6)) == older);
  CHECK(texts(builder_default_capabilities(12, 0)) == older);
  CHECK(texts(builder_default_capabilities(11, 8)) == older);

  // Only the last one embeds PTX.
  auto defaults = builder_default_capabilities(12, 8);
  CHECK(defaults.back().ptx);
  CHECK(std::none_of(defaults.begin(), defaults.end() - 1,
                     [](const Capability& c) { return c.ptx; }));
}

TEST_CASE("capabilities_for_source: the cuda-capabilities of the kernel that lists the file") {
  const BuildConfig config = rmsnorm_config();
  SourceCapabilities caps =
      capabilities_for_source(config, config.project_dir() / "rmsnorm_cuda/rmsnorm.cu", 12, 8);
  CHECK(texts(caps.entries) == std::vector<std::string>{"8.0", "9.0a", "10.0", "12.0"});
  CHECK(caps.entries[1].range == Range{{28, 28}, {28, 34}});  // points into build.toml
  REQUIRE(caps.list_range);
  CHECK(*caps.list_range == Range{{28, 20}, {28, 51}});
  CHECK(caps.origin == "build.toml [kernel.rmsnorm] cuda-capabilities");
}

TEST_CASE("capabilities_for_source: a kernel without cuda-capabilities gets the defaults") {
  const BuildConfig config = rmsnorm_config();
  SourceCapabilities caps =
      capabilities_for_source(config, config.project_dir() / "fused_cuda/detail/vec.cuh", 13, 0);
  CHECK(texts(caps.entries) == texts(builder_default_capabilities(13, 0)));
  for (const CapabilityEntry& entry : caps.entries) {
    CHECK(entry.range == Range{{31, 0}, {31, 26}});  // the [kernel.fused_add_rmsnorm] header
    CHECK(entry.capability);
  }
  CHECK_FALSE(caps.list_range);
  CHECK(caps.origin ==
        "build.toml [kernel.fused_add_rmsnorm] (no cuda-capabilities: kernel-builder defaults "
        "for CUDA 13.0)");
}

TEST_CASE("capabilities_for_source: a file no kernel lists gets the union over CUDA kernels") {
  const BuildConfig config = rmsnorm_config();
  SourceCapabilities caps =
      capabilities_for_source(config, config.project_dir() / "torch-ext/torch_binding.cpp", 12, 8);
  // rmsnorm's list, then the 12.8 defaults of fused_add_rmsnorm without repeats; the ROCm
  // kernel contributes nothing.
  CHECK(texts(caps.entries) == std::vector<std::string>{"8.0", "9.0a", "10.0", "12.0", "7.0", "7.2",
                                                        "7.5", "8.6", "8.7", "8.9", "9.0", "10.1",
                                                        "12.0+PTX"});
  REQUIRE(caps.list_range);
  CHECK(*caps.list_range == Range{{28, 20}, {28, 51}});
  CHECK(caps.origin.find("[kernel.rmsnorm] cuda-capabilities, [kernel.fused_add_rmsnorm] (no "
                         "cuda-capabilities") != std::string::npos);
}

TEST_CASE("capabilities_for_source: union over the kernels that share a file, deduplicated") {
  BuildConfigParse parsed = parse_build_toml("/p/build.toml", R"([general]
name = "attn"
version = 1
edition = 5
license = "mit"
backends = ["cuda"]

[torch]
src = []

[kernel.sm80]
backend = "cuda"
depends = ["torch"]
src = ["common/util.cuh", "sm80/attn.cu"]
cuda-capabilities = ["8.0", "8.6", "not-a-cap"]

[kernel.sm90]
backend = "cuda"
depends = ["torch"]
src = ["common/util.cuh", "sm90/attn.cu"]
cuda-capabilities = ["8.6", "9.0a", "not-a-cap", "8.0"]
)");
  REQUIRE(parsed.config);
  SourceCapabilities caps = capabilities_for_source(*parsed.config, "/p/common/util.cuh", 12, 8);
  CHECK(texts(caps.entries) == std::vector<std::string>{"8.0", "8.6", "not-a-cap", "9.0a"});
  CHECK(caps.entries[3].range == Range{{20, 28}, {20, 34}});
  CHECK(caps.origin ==
        "build.toml [kernel.sm80] cuda-capabilities, [kernel.sm90] cuda-capabilities");

  SourceCapabilities only90 = capabilities_for_source(*parsed.config, "/p/sm90/attn.cu", 12, 8);
  CHECK(texts(only90.entries) == std::vector<std::string>{"8.6", "9.0a", "not-a-cap", "8.0"});
}

TEST_CASE("capabilities_for_source: nothing for a project without CUDA kernels") {
  const fs::path path = kFixtures / "noarch.toml";
  BuildConfigParse parsed = parse_build_toml(path, read_text(path));
  REQUIRE(parsed.config);
  SourceCapabilities caps = capabilities_for_source(*parsed.config, kFixtures / "x.cu", 12, 8);
  CHECK(caps.entries.empty());
  CHECK_FALSE(caps.list_range);
}
