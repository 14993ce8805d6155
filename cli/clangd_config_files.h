#pragma once
// The two files `kernel-lsp clangd-config` writes, as text, and what it may do to a user's own.
//
// .clangd: kernel-lsp owns only a block between two marker lines (kClangdBlockBegin/End), one
// YAML document of its own (it starts with `---`). Writing again replaces that block and keeps
// every other line. A .clangd without the block is the user's: it is changed only with --force,
// which appends the block and still keeps the user's lines.
//
// compile_commands.json: the block records the content hash of the one kernel-lsp wrote. A
// compile_commands.json in the project folder whose hash is not the recorded one (or, with no
// block to record one, that does not force-include kernel-lsp's shim) belongs to the user's
// build: it is never overwritten. kernel-lsp then writes its own to
// .cache/kernel-lsp/compile_commands.json, folds the user's flags into it, and points clangd
// there (CompileFlags: CompilationDatabase).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "analyzers/frontend/clangd_commands.h"
#include "support/result.h"

namespace kl::cli {

inline constexpr std::string_view kClangdBlockBegin = "# >>> kernel-lsp clangd-config >>>";
inline constexpr std::string_view kClangdBlockEnd = "# <<< kernel-lsp clangd-config <<<";

// compile_commands.json: one {"directory", "file", "arguments"} object per entry, the
// directory being the project's (every path in the arguments is absolute).
std::string compile_commands_text(const analyzers::ClangdCommands& commands,
                                  const std::filesystem::path& directory);

struct ClangdBlockInputs {
  std::string database_dir;   // CompilationDatabase, relative to the .clangd: "." or ".cache/kernel-lsp"
  std::string database_hash;  // content hash of the compile_commands.json written with it
  bool user_database_kept = false;  // the project's compile_commands.json is the user's
};

// The block, markers included, ending with a newline.
std::string clangd_block_text(const ClangdBlockInputs& inputs);

// The hash a .clangd's block records for kernel-lsp's compile_commands.json; empty when the
// text has no block or the block records none.
std::string recorded_database_hash(std::string_view clangd_text);

// The .clangd to write at `path`: `existing` (nullopt: no file) with its block replaced by
// `block`, or `block` appended when the file has none and `force` is set. An error (with the
// path, and the line of a half block) when the file has no block and `force` is not set, or
// only one of the two markers.
Result<std::string> merged_clangd(const std::filesystem::path& path,
                                  const std::optional<std::string>& existing, const std::string& block,
                                  bool force);

}  // namespace kl::cli
