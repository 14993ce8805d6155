#pragma once
// file:// URIs ↔ absolute paths (RFC 8089 as editors write them: percent-encoded UTF-8, an
// optional empty authority). Other schemes (untitled:, git:) have no path. Pure.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kl::lsp {

std::optional<std::filesystem::path> uri_to_path(std::string_view uri);
std::string path_to_uri(const std::filesystem::path& path);

}  // namespace kl::lsp
