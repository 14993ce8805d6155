#pragma once
// Where kernel-lsp finds the files it ships (CUDA shim headers, the bundled skill, snippets).
// Looked up once: $KERNEL_LSP_RESOURCE_DIR, then <exe>/../share/kernel-lsp, then the source tree
// the binary was built from. Each candidate must contain the marker folder asked for.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace kl {

std::filesystem::path executable_path();
// The first resource root that contains `relative` (e.g. "analyzers/frontend/shims").
std::optional<std::filesystem::path> find_resource(const std::string& relative);
// `path` made absolute against the working directory and normalised, without touching the file
// system beyond the working directory (no symlinks resolved); `path` itself normalised when the
// working directory is unknown.
std::filesystem::path absolute_normal(const std::filesystem::path& path);
// Reads a whole file; nullopt when it cannot be read.
std::optional<std::string> read_file_text(const std::filesystem::path& path);
// kernel-lsp's cache folder `subfolder` for this user: $<override_env> when set, else
// $XDG_CACHE_HOME/kernel-lsp/<subfolder>, else ~/.cache/kernel-lsp/<subfolder>; empty when
// neither variable is set.
std::filesystem::path user_cache_dir(const char* override_env, const std::string& subfolder);
// A name beside `path`, unique to this process and call (pid and a counter), for a file that is
// written whole and then renamed over `path`.
std::filesystem::path temporary_sibling(const std::filesystem::path& path);
// Writes `text` to `path` through a temporary sibling and a rename, so that a reader (another
// process included) sees the old file or the new one, never part of one. False when either
// step failed; the temporary file is then removed.
bool write_file_atomically(const std::filesystem::path& path, const std::string& text);

// A file's size and modification time (the file clock's ticks): what tells whether a file read
// earlier has changed since. nullopt when either cannot be read.
struct FileStamp {
  uintmax_t size = 0;
  int64_t modified = 0;
  bool operator==(const FileStamp&) const = default;
};
std::optional<FileStamp> file_stamp(const std::filesystem::path& file);

}  // namespace kl
