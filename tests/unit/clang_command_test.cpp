// The per-arch clang command line (device_parse_command) and the nvcc macros it defines, read
// as a specification: which macros a device parse sees, and in which order the project's flags,
// build.toml's include folders and extraFlags come.
#include "analyzers/frontend/clang_command.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {

using namespace kl::analyzers;
using Macros = std::vector<std::pair<std::string, std::string>>;

ptrdiff_t position(const std::vector<std::string>& argv, const std::string& arg) {
  auto it = std::find(argv.begin(), argv.end(), arg);
  return it == argv.end() ? -1 : it - argv.begin();
}

ClangCommandInputs inputs_with_everything() {
  ClangCommandInputs inputs;
  inputs.file = "/p/csrc/k.cu";
  inputs.resource_dir = "/usr/lib/llvm-19/lib/clang/19";
  inputs.project_flags = {"-DFROM_COMPILE_COMMANDS", "-I/p/from_cc"};
  inputs.build_toml_include_dirs = {"/p/csrc/include", "/p"};
  inputs.extra_flags = {"-DFROM_SETTINGS"};
  inputs.nvcc_version = NvccVersion{12, 8, 93};
  return inputs;
}

}  // namespace

TEST_CASE("nvcc_compiler_macros: what nvcc 13's device pass defines besides the arch macros") {
  CHECK(nvcc_compiler_macros(NvccVersion{13, 0, 88}) == Macros{{"__NVCC__", "1"},
                                                               {"__CUDACC_VER_MAJOR__", "13"},
                                                               {"__CUDACC_VER_MINOR__", "0"},
                                                               {"__CUDACC_VER_BUILD__", "88"},
                                                               {"__CUDA_API_VER_MAJOR__", "13"},
                                                               {"__CUDA_API_VER_MINOR__", "0"},
                                                               {"__NVCC_DIAG_PRAGMA_SUPPORT__", "1"}});
  // An unknown build number leaves __CUDACC_VER_BUILD__ undefined rather than wrong.
  const Macros without_build = nvcc_compiler_macros(NvccVersion{12, 8, std::nullopt});
  CHECK(std::none_of(without_build.begin(), without_build.end(),
                     [](const auto& m) { return m.first == "__CUDACC_VER_BUILD__"; }));
  CHECK(std::find(without_build.begin(), without_build.end(),
                  std::pair<std::string, std::string>{"__CUDACC_VER_MINOR__", "8"}) != without_build.end());
  // Only with options nvcc does not use by default.
  for (const auto& [name, value] : nvcc_compiler_macros(NvccVersion{}))
    CHECK((name != "__CUDACC_EXTENDED_LAMBDA__" && name != "__CUDACC_RELAXED_CONSTEXPR__" &&
           name != "__CUDACC_DEBUG__" && name != "__CUDACC_RDC__"));
}

TEST_CASE("device_parse_command: nvcc's version macros from the toolkit's version") {
  const std::vector<std::string> argv =
      device_parse_command(inputs_with_everything(), *parse_capability("9.0"));
  CHECK(position(argv, "-D__NVCC__=1") > 0);
  CHECK(position(argv, "-D__CUDACC_VER_MAJOR__=12") > 0);
  CHECK(position(argv, "-D__CUDACC_VER_MINOR__=8") > 0);
  CHECK(position(argv, "-D__CUDACC_VER_BUILD__=93") > 0);
  CHECK(argv.back() == "/p/csrc/k.cu");
}

TEST_CASE("device_parse_command: compile_commands.json, then build.toml's include, then extraFlags") {
  const std::vector<std::string> argv =
      device_parse_command(inputs_with_everything(), *parse_capability("9.0a"));
  const ptrdiff_t version = position(argv, "-D__CUDACC_VER_MAJOR__=12");
  const ptrdiff_t arch = position(argv, "-D__CUDA_ARCH_FEAT_SM90_ALL=1");
  const ptrdiff_t project = position(argv, "-DFROM_COMPILE_COMMANDS");
  const ptrdiff_t project_include = position(argv, "-I/p/from_cc");
  const ptrdiff_t toml_include = position(argv, "-I/p/csrc/include");
  const ptrdiff_t toml_root = position(argv, "-I/p");
  const ptrdiff_t settings = position(argv, "-DFROM_SETTINGS");
  REQUIRE(version > 0);
  REQUIRE(arch > 0);
  // The project's flags may redefine what nvcc would define, extraFlags anything.
  CHECK(version < project);
  CHECK(arch < project);
  CHECK(project < project_include);
  CHECK(project_include < toml_include);
  CHECK(toml_include < toml_root);
  CHECK(toml_root < settings);
  CHECK(settings == static_cast<ptrdiff_t>(argv.size()) - 2);
}

TEST_CASE("device_parse_command: no build.toml include folders, no -I of its own") {
  ClangCommandInputs inputs;
  inputs.file = "/p/k.cu";
  const std::vector<std::string> argv = device_parse_command(inputs, *parse_capability("8.0"));
  CHECK(std::none_of(argv.begin(), argv.end(), [](const std::string& a) { return a.rfind("-I", 0) == 0; }));
  // The default version is the one the analysis assumes without a toolkit.
  CHECK(position(argv, "-D__CUDACC_VER_MAJOR__=13") > 0);
  CHECK(position(argv, "-D__CUDACC_VER_MINOR__=0") > 0);
}
