#pragma once
// The architectures a project without a build.toml declares in its own build files. Most CUDA
// code for PyTorch is not in kernel-builder's layout: a setup.py with torch's CUDAExtension, a
// CMake project, a Makefile, or a compile_commands.json made from one of them. Each says which
// GPUs it compiles for in its own words, and analysing against kernel-builder's default list
// instead reports features as missing on archs the project never builds for.
//
// Read, in this order (the first that names at least one capability decides):
//   1. compile_commands.json, the file's own entry or a neighbour's: nvcc's -gencode /
//      -arch / --gpu-architecture, clang's --cuda-gpu-arch / --offload-arch;
//   2. the build files of the nearest folder, from the file's own up to the file-system root,
//      that declares any: setup.py, CMakeLists.txt and *.cmake (also in a cmake/ folder beside
//      them), Makefile / makefile / GNUmakefile / *.mk. Literal declarations only:
//      `arch=compute_80,code=sm_80`, `-arch=sm_90a`, `TORCH_CUDA_ARCH_LIST` set to a string
//      ("7.0 7.5 8.0+PTX", "8.0;9.0a", torch's names "Ampere", "Hopper"),
//      `CMAKE_CUDA_ARCHITECTURES` / `CUDA_ARCHITECTURES` set to numbers ("80;86-real;90a").
//      Lists built at run time (from the installed GPU, a loop over a version test) are not
//      read; such a project declares nothing here;
//   3. the TORCH_CUDA_ARCH_LIST environment variable the caller passes (the build's environment).
// A declaration is a union: a setup.py that adds sm_80 and, under a CUDA-version test, sm_90a
// builds for both in some configuration, and nvcc would reject a feature missing on either.
//
// Plain functions of the files they read; never throw. Cost: a handful of small file reads.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/project/capability.h"

namespace kl::analyzers {

struct DeclaredArch {
  Capability arch;
  Location location;  // where it is written (the file, its line)
};

struct DeclaredArchs {
  std::vector<DeclaredArch> archs;  // each capability once, in the order first written
  std::string origin;               // "setup.py", "CMakeLists.txt", "compile_commands.json", ...
  std::vector<std::filesystem::path> files_read;  // every build file looked at (for result caches)
};

// The capabilities one build file's text declares. `file_name` decides the syntax (Python,
// CMake, Make, shell); `file` is what the locations name.
std::vector<DeclaredArch> archs_declared_in_text(const std::string& file, std::string_view text);

// The capabilities a TORCH_CUDA_ARCH_LIST value names ("7.0;7.5 8.0+PTX", "Ampere"). Unknown
// words are skipped.
std::vector<Capability> parse_torch_arch_list(std::string_view value);

// The capabilities one compiler command line (argv) targets.
std::vector<Capability> archs_of_command(const std::vector<std::string>& argv);

// What the project of `source` declares (see above). `compile_database` is the one the
// analysis uses, if any, and `compile_command` the command it gives the file as written
// (empty when none); `torch_arch_list_env` the environment's TORCH_CUDA_ARCH_LIST.
// `files_read` is filled even when nothing is declared.
DeclaredArchs find_declared_archs(const std::filesystem::path& source,
                                  const std::optional<std::filesystem::path>& compile_database,
                                  const std::vector<std::string>& compile_command,
                                  const std::optional<std::string>& torch_arch_list_env);

}  // namespace kl::analyzers
