#pragma once
// Flags from the project's compile_commands.json (CMake, bear), translated for clang.
// nvcc command lines carry flags clang rejects or misreads (-gencode, --expt-relaxed-constexpr,
// -Xcompiler, -rdc ...). We keep what changes how the device side parses (include paths,
// defines, the language standard, forced includes) and drop the rest, so a project built with
// nvcc lints with the same headers and macros it compiles with. Definitions of the arch macros
// (__CUDA_ARCH__, __CUDA_ARCH_LIST__, __CUDA_ARCH_FEAT_*, ...) are dropped too: every parse
// defines its own arch's.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kl::analyzers {

struct CompileFlags {
  std::vector<std::string> args;         // ready for clang, paths absolute
  std::filesystem::path database;        // the compile_commands.json they came from
  bool exact_match = false;              // the file itself is in the database (else a neighbour's)
  std::vector<std::string> command;      // the entry's command as written (argv, program first)
};

// Finds compile_commands.json in the source's folder, its parents, or their build/ folders.
std::optional<std::filesystem::path> find_compile_database(const std::filesystem::path& source);

// Flags for `source` from `database`: its own entry, else the entry of a file in the same folder
// (headers and new files), else nullopt. Malformed databases yield nullopt, never an exception.
std::optional<CompileFlags> flags_from_database(const std::filesystem::path& database,
                                                const std::filesystem::path& source);

// Translate one nvcc/gcc/clang command line (argv, program first) into clang flags.
// `directory` resolves relative paths.
std::vector<std::string> translate_compile_command(const std::vector<std::string>& argv,
                                                   const std::filesystem::path& directory);

// Split a shell-quoted command string (compile_commands "command" form).
std::vector<std::string> split_command_line(const std::string& command);

}  // namespace kl::analyzers
