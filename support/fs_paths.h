#pragma once
// Where kernel-lsp finds the files it ships (CUDA shim headers, the bundled skill, snippets).
// Looked up once: $KERNEL_LSP_RESOURCE_DIR, then <exe>/../share/kernel-lsp, then the source tree
// the binary was built from. Each candidate must contain the marker folder asked for.
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

}  // namespace kl
