#pragma once
// The clang command lines that let clangd (19) parse a kernel-builder project built with CUDA 13:
// one per C, C++ and CUDA file under the build.toml's folder, for `kernel-lsp clangd-config`,
// which writes them as compile_commands.json. Made from the same pieces as kernel-lsp's own
// parse (clang_command.h: the toolkit, the shims, nvcc's macros; torch_headers.h; the CUTLASS
// lookup; compile_database.h's nvcc translation) and from what kernel-builder adds to its
// compiles (builder_compile_flags.h), so that clangd sees the code the way the build compiles it.
//
// What each file gets:
//  - a .cu or .cuh file, and a header that a kernel's .cu includes or a kernel's `src` lists: the
//    device side (`-x cuda --cuda-device-only`, where kernel bodies and `#if __CUDA_ARCH__` code
//    are live) for the most capable capability of the kernels that compile it, so that code
//    guarded for that arch is parsed and an older arch's missing API is not an error here (the
//    arch rules report those, per capability);
//  - any other file (the torch-ext binding, its headers): the host side, C++17 with CUDA's
//    runtime headers, PyTorch's headers, kernel-builder's defines and TORCH_EXTENSION_NAME, and
//    the stand-in for the builder-generated registration.h after the project's own folders.
// build.toml's `cuda-flags` / `cxx-flags` and the flags of a compile_commands.json of the user's
// own go through translate_compile_command: what changes how code parses (-I, -D, -U, -std,
// -include, -Xcompiler's) is kept, nvcc's code-generation options are dropped.
//
// Plain function of its inputs and the project's files (it lists the folder and reads the .cu
// sources' #include lines, kernel_includers.h); the caller finds the toolchain once.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/frontend/cutlass_headers.h"
#include "analyzers/frontend/torch_headers.h"
#include "analyzers/project/build_config.h"

namespace kl::analyzers {

// What the machine provides, found by the caller (find_clangd_toolchain does it the usual way).
struct ClangdToolchain {
  CudaToolkit toolkit;
  std::filesystem::path shim_dir;           // default_shim_dir(): what CUDA 13 removed
  TorchHeaders torch;                       // PyTorch's real headers, when found
  std::filesystem::path torch_standin_dir;  // else kernel-lsp's stand-in
  std::optional<CutlassHeaders> cutlass;
  // A folder with a registration.h standing in for the one kernel-builder generates into its
  // build folder (kernels/common), and one with <Python.h>, which that header includes.
  std::filesystem::path registration_dir;
  std::filesystem::path python_include_dir;
};

struct ClangdToolchainQuery {
  std::optional<std::filesystem::path> cuda_path;         // --cuda-path
  std::vector<std::filesystem::path> torch_include_dirs;  // --torch-include-path
  std::vector<std::filesystem::path> cutlass_paths;       // --cutlass-path
};

// The toolkit (an error when none is found: clangd cannot parse CUDA without one) and the rest,
// each found the way kernel-lsp's analysis finds it. Asks python3 for torch (once).
Result<ClangdToolchain> find_clangd_toolchain(const ClangdToolchainQuery& query);

struct ClangdEntry {
  std::filesystem::path file;          // absolute
  std::vector<std::string> arguments;  // "clang++" first, "-c" and the file last
  bool cuda = false;                   // device side (else host C++)
  std::string origin;                  // for people: "[kernel.rmsnorm] 9.0" or "host C++ ([torch])"
};

struct ClangdCommands {
  std::vector<ClangdEntry> entries;  // in path order
  // What a person should know about the commands: headers not found, files skipped.
  std::vector<std::string> notes;
};

inline constexpr size_t kMaxClangdFiles = 4000;

// The commands for every C, C++ and CUDA file under `config`'s folder (hidden folders and
// build outputs left out, at most kMaxClangdFiles). `user_database`: a compile_commands.json
// that the user's build wrote, whose flags for a file (its own entry or a neighbour's) join
// that file's command, as they join kernel-lsp's own parse.
ClangdCommands clangd_commands(const BuildConfig& config, const ClangdToolchain& toolchain,
                               const std::optional<std::filesystem::path>& user_database);

// build.toml's `cuda-flags` (or any nvcc/gcc flags) for clang: translate_compile_command's
// selection, plus the macros nvcc defines for its --expt-relaxed-constexpr and
// --expt-extended-lambda (clang allows what they allow without being asked, but code may test
// the macros). --use_fast_math, -O3, -gencode and the like change code generation, not parsing:
// dropped (-ffast-math would also make clang warn at every INFINITY).
std::vector<std::string> clang_flags_for(const std::vector<std::string>& nvcc_flags,
                                         const std::filesystem::path& directory);

}  // namespace kl::analyzers
