#pragma once
// `kernel-lsp clangd-config [DIR]`: sets clangd up beside kernel-lsp for a kernel-builder
// project, so that clangd (go-to-definition, references, completion, compile errors) parses
// CUDA 13 sources the way the build compiles them, while kernel-lsp provides the kernel rules.
//   DIR            a folder or file of the project (default: the current folder); the nearest
//                  build.toml at or above it decides the project
//   --cuda-path, --torch-include-path, --cutlass-path   as for `lint`
//   --force        append kernel-lsp's block to a .clangd of the user's (their lines are kept)
//   --print        print the files instead of writing them
//   --dry-run      say what would be written, file by file, and write nothing
// Writes compile_commands.json (clangd_config_files.h says where, and when a user's is kept) and
// .clangd. Exit codes: 0 written (or printed); 2 no build.toml, a build.toml with errors, no CUDA
// kernel, no CUDA toolkit, a .clangd of the user's without --force, or a file that cannot be
// written — each with the place it concerns.
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/registered_command.h"

namespace kl::cli {

struct ClangdConfigOptions {
  std::string dir;  // empty: the current folder
  std::string cuda_path;
  std::vector<std::string> torch_include_path;
  std::vector<std::string> cutlass_path;
  bool force = false;
  bool print = false;
  bool dry_run = false;
};

// The whole command, for tests: reports on `out`, errors on `err`; the exit code.
int run_clangd_config(const ClangdConfigOptions& options, std::ostream& out, std::ostream& err);

RegisteredCommand add_clangd_config_command(CLI::App& app);

}  // namespace kl::cli
