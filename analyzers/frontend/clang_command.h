#pragma once
// The clang command line that parses the device side of one file for one target architecture.
// clang 19 knows CUDA archs up to sm_90a; for newer ones (sm_100, sm_120, ...) we parse as the
// nearest older arch clang knows and redefine __CUDA_ARCH__ and the arch-feature macros the way
// nvcc defines them, so #if guards in user code see what nvcc would see. The other macros nvcc
// defines for a device compilation (__NVCC__, __CUDACC_VER_MAJOR__, ...) come from
// nvcc_macros.h.
//
// Order of what the project contributes: compile_commands.json's flags (the real build's), then
// -I for build.toml's `include` folders (what kernel-builder adds; a compile_commands.json made by
// kernel-builder's CMake already has them, and clang drops a repeated -I, so that file's order
// stands), then extraFlags, last so that the user's -D/-U override everything before them.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/frontend/nvcc_macros.h"
#include "analyzers/project/capability.h"

namespace kl::analyzers {

struct ClangCommandInputs {
  std::filesystem::path file;
  std::filesystem::path cuda_root;
  std::filesystem::path shim_dir;       // headers CUDA 13 removed but clang 19 still includes
  std::filesystem::path resource_dir;   // clang's own headers (__clang_cuda_runtime_wrapper.h)
  std::vector<std::string> project_flags;  // from compile_commands.json, translated
  // The compile_commands.json found for the file (whether or not it lists it): what the
  // project flags depend on, for a result cache. Not part of the command.
  std::optional<std::filesystem::path> compile_database;
  // build.toml's `include` folders for this file (-I, after project_flags)
  std::vector<std::filesystem::path> build_toml_include_dirs;
  std::vector<std::string> extra_flags;  // from settings
  NvccVersion nvcc_version;              // for __CUDACC_VER_MAJOR__ and friends
};

// argv for clang's driver (program name first), ending with the file name.
std::vector<std::string> device_parse_command(const ClangCommandInputs& inputs,
                                              const Capability& capability);

// The arch clang parses as ("sm_90a"), and whether macros must be redefined on top of it.
std::string clang_gpu_arch(const Capability& capability, bool& needs_macro_override);

// The macros nvcc defines for `capability` (name -> value), e.g. __CUDA_ARCH__=900,
// __CUDA_ARCH_FEAT_SM90_ALL=1, __CUDA_ARCH_SPECIFIC__=900.
std::vector<std::pair<std::string, std::string>> nvcc_arch_macros(const Capability& capability);

// What any clang command over CUDA 13 sources needs from the toolkit and kernel-lsp's shims, in
// this order: --cuda-path, CUDA 13's CCCL folder (nvcc adds it through nvcc.profile), the shim
// folder with its two forced includes, and the macro that declares cooperative groups' clusters.
// Shared by the device parse and the commands written for clangd (clangd_commands.h).
std::vector<std::string> toolkit_flags(const std::filesystem::path& cuda_root,
                                       const std::filesystem::path& shim_dir);

// -U/-D pairs for the arch macros nvcc defines for `capability` (nvcc_arch_macros); __CUDA_ARCH__
// only where clang parses as another arch than `capability` (clang_gpu_arch).
std::vector<std::string> arch_macro_flags(const Capability& capability);

// Resource folders found at run time: shim headers and clang's resource dir.
std::filesystem::path default_shim_dir();
std::filesystem::path default_resource_dir();

}  // namespace kl::analyzers
