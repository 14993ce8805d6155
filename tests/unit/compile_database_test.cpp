#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "analyzers/frontend/compile_database.h"

using kl::analyzers::translate_compile_command;

TEST_CASE("nvcc command lines keep what changes parsing and drop the rest") {
  std::vector<std::string> argv = {"/usr/local/cuda/bin/nvcc", "-gencode", "arch=compute_80,code=sm_80",
                                   "-gencode=arch=compute_90a,code=sm_90a", "--expt-relaxed-constexpr",
                                   "--use_fast_math", "-rdc=true", "-Xcompiler", "-fPIC,-DHOST_ONLY=1,-Wall",
                                   "-I", "include", "-Ithird_party/cutlass/include", "-DTORCH_EXTENSION_NAME=ops",
                                   "-isystem", "/opt/torch/include", "--std=c++17", "-O3", "-c", "k.cu", "-o", "k.o",
                                   "--include-path=more", "-x", "cu", "-lineinfo"};
  auto args = translate_compile_command(argv, "/proj/build");
  std::vector<std::string> expected = {"-fgpu-rdc", "-D", "HOST_ONLY=1", "-I", "/proj/build/include",
                                       "-I", "/proj/build/third_party/cutlass/include", "-D",
                                       "TORCH_EXTENSION_NAME=ops", "-isystem", "/opt/torch/include",
                                       "-std=c++17", "-I", "/proj/build/more"};
  CHECK(args == expected);
}

TEST_CASE("the arch macros are each parse's own: a command line's definitions of them are dropped") {
  // What `kernel-lsp clangd-config` writes for clangd (one arch per file), read back by the analysis.
  std::vector<std::string> argv = {"clang++",
                                   "-U__CUDA_ARCH__",
                                   "-D__CUDA_ARCH__=1000",
                                   "-U",
                                   "__CUDA_ARCH_LIST__",
                                   "-D__CUDA_ARCH_LIST__=1000",
                                   "-D__CUDA_ARCH_FEAT_SM90_ALL=1",
                                   "--define-macro=__CUDA_ARCH_SPECIFIC__=900",
                                   "-D__CUDA_ARCH_FAMILY_SPECIFIC__=1000",
                                   "-D__CUDA_ARCHIVE_DIR=1",
                                   "-D__NVCC__=1"};
  auto args = translate_compile_command(argv, "/proj");
  std::vector<std::string> expected = {"-D", "__CUDA_ARCHIVE_DIR=1", "-D", "__NVCC__=1"};
  CHECK(args == expected);
}

TEST_CASE("a forced include stays a name unless the compile's folder holds it (clang searches the path)") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "kl_compile_db_forced_include";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "local_prefix.h") << "";
  auto args = translate_compile_command({"clang++", "-include", "kernel_lsp_launch_shim.h", "-include",
                                         "local_prefix.h", "--pre-include=/abs/p.h"},
                                        dir);
  std::vector<std::string> expected = {"-include", "kernel_lsp_launch_shim.h",
                                       "-include", (dir / "local_prefix.h").string(),
                                       "-include", "/abs/p.h"};
  CHECK(args == expected);
  fs::remove_all(dir);
}

TEST_CASE("shell-quoted commands split like a shell would") {
  auto parts = kl::analyzers::split_command_line(R"(nvcc -DNAME="a b" 'x y' z\ w)");
  std::vector<std::string> expected = {"nvcc", "-DNAME=a b", "x y", "z w"};
  CHECK(parts == expected);
}

TEST_CASE("compile_commands.json gives a file its flags, and a neighbour's to a header") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "kl_compile_db_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "build");
  std::ofstream(dir / "build" / "compile_commands.json")
      << R"([{"directory": ")" << (dir / "build").string()
      << R"(", "command": "nvcc -I../inc -DX=1 -c ../k.cu", "file": "../k.cu"}])";
  std::ofstream(dir / "k.cu") << "";
  auto database = kl::analyzers::find_compile_database(dir / "k.cu");
  REQUIRE(database);
  auto own = kl::analyzers::flags_from_database(*database, dir / "k.cu");
  REQUIRE(own);
  CHECK(own->exact_match);
  CHECK(std::find(own->args.begin(), own->args.end(), "X=1") != own->args.end());
  auto header = kl::analyzers::flags_from_database(*database, dir / "k.cuh");
  REQUIRE(header);
  CHECK_FALSE(header->exact_match);
  std::ofstream(dir / "build" / "compile_commands.json") << "{ not json";
  CHECK_FALSE(kl::analyzers::flags_from_database(*database, dir / "k.cu"));
  fs::remove_all(dir);
}
