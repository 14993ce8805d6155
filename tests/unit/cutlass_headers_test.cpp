// Finding CUTLASS for kernel files that include cute/ or cutlass/ headers.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analyzers/frontend/cutlass_headers.h"

using namespace kl::analyzers;
namespace fs = std::filesystem;

namespace {

fs::path fake_checkout(const std::string& name, bool with_util) {
  fs::path root = fs::temp_directory_path() / ("kl_cutlass_" + name);
  fs::remove_all(root);
  fs::create_directories(root / "include" / "cutlass");
  std::ofstream(root / "include" / "cutlass" / "cutlass.h") << "#pragma once\n";
  if (with_util) fs::create_directories(root / "tools" / "util" / "include");
  return root;
}

}  // namespace

TEST_CASE("a configured checkout gives its include folders as system headers") {
  fs::path root = fake_checkout("checkout", true);
  auto found = find_cutlass_headers({fs::temp_directory_path() / "kl_cutlass_nothing_here", root});
  REQUIRE(found);
  CHECK(found->found_by == "cutlassPath");
  REQUIRE(found->dirs.size() == 2);
  CHECK(found->dirs[0] == root / "include");
  auto flags = cutlass_include_flags(found, {"-DNDEBUG"});
  REQUIRE(flags.size() == 4);
  CHECK(flags[0] == "-isystem");
  CHECK(flags[1] == (root / "include").string());
}

TEST_CASE("an include folder is accepted as well as its checkout") {
  fs::path root = fake_checkout("include_only", false);
  auto found = find_cutlass_headers({root / "include"});
  REQUIRE(found);
  CHECK(found->root == root);
  CHECK(found->dirs.size() == 1);
}

TEST_CASE("flags that already reach CUTLASS get nothing more; CUTLASS_PATH is read") {
  fs::path root = fake_checkout("env", false);
  auto found = find_cutlass_headers({root});
  CHECK(cutlass_include_flags(found, {"-I" + (root / "include").string()}).empty());
  CHECK(cutlass_include_flags(found, {"-isystem", (root / "include").string()}).empty());
  CHECK(cutlass_include_flags(std::nullopt, {}).empty());
  setenv("CUTLASS_PATH", root.c_str(), 1);
  auto from_env = find_cutlass_headers({});
  unsetenv("CUTLASS_PATH");
  REQUIRE(from_env);
  CHECK(from_env->found_by == "CUTLASS_PATH");
}
