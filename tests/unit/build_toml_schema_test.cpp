// The build.toml schema as data (analyzers/data/build_toml_schema.toml through BuildTomlSchema):
// the shipped table loads and says what the section readers rely on, and a broken table is
// refused with a location, so that a bad edit fails at start-up instead of half-working.
#include "analyzers/project/build_toml_schema.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using namespace kl::analyzers;

std::string shipped_text() {
  std::ifstream in(std::filesystem::path(KL_SOURCE_DIR) / "analyzers/data/build_toml_schema.toml",
                   std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The shipped text with `from` (which must occur) replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = shipped_text();
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::vector<std::string> words(std::span<const std::string_view> views) {
  return {views.begin(), views.end()};
}

}  // namespace

TEST_CASE("the shipped schema loads, and is the one built in") {
  auto shipped = BuildTomlSchema::parse(shipped_text(), "build_toml_schema.toml");
  INFO((shipped ? "" : shipped.error().describe()));
  REQUIRE(shipped);
  const BuildTomlSchema& schema = BuildTomlSchema::builtin();
  for (std::string_view table : {"top-level", "general", "general.cuda", "general.hub", "general.xpu",
                                 "general.neuron", "general.tpu", "kernel-depends", "torch",
                                 "torch-noarch", "tvm-ffi", "kernel"}) {
    INFO(table);
    CHECK_FALSE(schema.keys(table).empty());
    CHECK(words(schema.keys(table)) == words(shipped->keys(table)));
  }
  CHECK(schema.keys("no-such-table").empty());
  CHECK(words(schema.general_backends()) == words(shipped->general_backends()));
}

TEST_CASE("the schema keeps the order of the data file") {
  const BuildTomlSchema& schema = BuildTomlSchema::builtin();
  CHECK(words(schema.keys("top-level")) ==
        std::vector<std::string>{"general", "torch", "torch-noarch", "tvm-ffi", "kernel"});
  CHECK(words(schema.kernel_backends()) == std::vector<std::string>{"cpu", "cuda", "metal", "rocm", "xpu"});
  // A kernel without `backend` is taken for the first backend whose keys it has: CUDA first.
  REQUIRE(schema.kernel_backend_keys().size() == 6);
  CHECK(schema.kernel_backend_keys().front().key == "cuda-capabilities");
  CHECK(schema.kernel_backend_keys().front().backend_title == "CUDA");
  CHECK(schema.kernel_backend_keys().back().backend == "xpu");
  CHECK(words(schema.general_python_depends()) == std::vector<std::string>{"einops", "helion", "tvm-ffi"});
  CHECK(words(schema.python_depends_of("cuda")) == std::vector<std::string>{"nvidia-cutlass-dsl"});
  CHECK(schema.python_depends_of("cpu").empty());
}

TEST_CASE("depends: exactly the listed values, as upstream's enum Dependency") {
  const BuildTomlSchema& schema = BuildTomlSchema::builtin();
  for (const char* known : {"torch", "sycl_tla", "metal-cpp", "cutlass_2_10", "cutlass_3_5", "cutlass_3_6",
                            "cutlass_3_8", "cutlass_3_9", "cutlass_4_0", "cutlass_4_4", "cutlass_4_5"})
    CHECK(schema.is_dependency(known));
  for (const char* unknown : {"cutlass_3_7", "cutlass_4_1", "cutlass_4_2", "cutlass_4_3", "cutlass_3_10",
                              "cutlass_2_9", "cutlass_4_6", "cutlass", "cutlass_4", "torh"})
    CHECK_FALSE(schema.is_dependency(unknown));
  CHECK(schema.dependencies().size() == 11);
  CHECK(schema.dependencies().front() == "torch");
}

TEST_CASE("git URLs take upstream's schemes") {
  CHECK(words(BuildTomlSchema::builtin().git_url_schemes()) ==
        std::vector<std::string>{"https", "http", "git", "ssh", "git+ssh", "git+https", "git+http"});
}

TEST_CASE("which format added or removed a key") {
  const BuildTomlSchema& schema = BuildTomlSchema::builtin();
  const EditionKey* tpu = schema.find_edition_key("general", "tpu");
  REQUIRE(tpu);
  CHECK(tpu->edition == 5);
  CHECK(tpu->advice == "add `edition = 5` to [general]");
  REQUIRE(schema.find_edition_key("general.neuron", "kernel-depends"));
  // Keys v4 has too (kernels-data v4.rs): no format restriction.
  for (auto [path, key] : {std::pair{"general", "source"}, {"torch", "cxx-flags"}, {"tvm-ffi", "cxx-flags"},
                           {"torch-noarch", "pyext"}, {"torch-noarch", "cuda_capabilities"},
                           {"torch-noarch", "rocm_archs"}, {"general", "name"}}) {
    INFO(path << " " << key);
    CHECK(schema.find_edition_key(path, key) == nullptr);
  }
  // Edition 5 removed no key of v4, and no format has these.
  CHECK(schema.find_edition_key("general", "rocm") == nullptr);
  CHECK(schema.find_edition_key("general.cuda", "capabilities") == nullptr);
  for (std::string_view table : {"general", "general.cuda"}) {
    const auto keys = words(schema.keys(table));
    const bool has_minver = std::find(keys.begin(), keys.end(), "minver") != keys.end();
    CHECK(has_minver == (table == "general.cuda"));
  }
  const EditionKey* abi = schema.find_edition_5_table_value("torch", "stable-abi");
  REQUIRE(abi);
  CHECK(abi->advice.find("stable-abi = \"2.10\"") != std::string_view::npos);
  CHECK(schema.find_edition_5_table_value("torch", "src") == nullptr);
  CHECK(schema.find_pre_v4_key("kernel", "language") != nullptr);
  CHECK(schema.find_pre_v4_key("torch", "universal") != nullptr);
  CHECK(schema.find_pre_v4_key("kernel", "universal") == nullptr);
  CHECK(schema.backend_of_language("cuda-hipify") == std::optional<std::string_view>("rocm"));
  CHECK_FALSE(schema.backend_of_language("fortran"));
}

TEST_CASE("a broken schema is refused with a location") {
  auto syntax = BuildTomlSchema::parse("[keys\n", "s.toml");
  REQUIRE_FALSE(syntax);
  CHECK(syntax.error().location.has_value());

  auto edition = BuildTomlSchema::parse(edited("edition = 5", "edition = 6"), "s.toml");
  REQUIRE_FALSE(edition);
  CHECK(edition.error().message.find("edition = 5") != std::string::npos);

  auto missing = BuildTomlSchema::parse(edited("\"general.tpu\" = [\"python-depends\"]\n", ""), "s.toml");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("general.tpu") != std::string::npos);

  auto extra = BuildTomlSchema::parse(edited("[keys]\n", "[keys]\n\"general.gpu\" = [\"x\"]\n"), "s.toml");
  REQUIRE_FALSE(extra);
  CHECK(extra.error().describe().find("s.toml:") == 0);

  auto unknown_entry = BuildTomlSchema::parse(edited("edition = 5\n", "edition = 5\nbackend = [\"cuda\"]\n"), "s.toml");
  REQUIRE_FALSE(unknown_entry);
  CHECK(unknown_entry.error().message.find("unknown entry `backend`") != std::string::npos);

  auto cutlass_range = BuildTomlSchema::parse(edited("[depends]\n", "[depends]\ncutlass-range = [\"3.5\", \"4.5\"]\n"),
                                              "s.toml");
  REQUIRE_FALSE(cutlass_range);
  CHECK(cutlass_range.error().message.find("cutlass-range") != std::string::npos);

  auto twice = BuildTomlSchema::parse(
      edited("\"general.xpu\" = [\"kernel-depends\"]\n", "\"general.xpu\" = [\"kernel-depends\", \"kernel-depends\"]\n"),
      "s.toml");
  REQUIRE_FALSE(twice);
  CHECK(twice.error().message.find("listed twice") != std::string::npos);

  auto shared_package = BuildTomlSchema::parse(edited("xpu = [\"onednn\"]", "xpu = [\"onednn\", \"nki\"]"), "s.toml");
  REQUIRE_FALSE(shared_package);
  CHECK(shared_package.error().message.find("two backends") != std::string::npos);
}
