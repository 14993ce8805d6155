#include "cli/clangd_config_files.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace kl::cli {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kHashKey = "# compile_commands.json written by kernel-lsp, hash ";

// Where `marker` begins a line of `text`, at or after `from`.
std::optional<size_t> marker_line(std::string_view text, std::string_view marker, size_t from = 0) {
  for (size_t at = text.find(marker, from); at != std::string_view::npos; at = text.find(marker, at + 1))
    if (at == 0 || text[at - 1] == '\n') return at;
  return std::nullopt;
}

size_t after_line(std::string_view text, size_t at) {
  size_t newline = text.find('\n', at);
  return newline == std::string_view::npos ? text.size() : newline + 1;
}

uint32_t line_number(std::string_view text, size_t at) {
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n'));
}

// Whether YAML follows in `rest` before any `---`: then it needs a document of its own, or it
// would join kernel-lsp's (a key written twice in one document is an error to clangd).
bool needs_document_start(std::string_view rest) {
  size_t at = 0;
  while (at < rest.size()) {
    size_t end = after_line(rest, at);
    std::string_view line = rest.substr(at, end - at);
    size_t first = line.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && line[first] != '#') return line.substr(first, 3) != "---";
    at = end;
  }
  return false;
}

// Appended to the block's YAML: what clangd's diagnostics are left with beside kernel-lsp, and why.
constexpr const char* kDiagnosticsComment =
    "# Diagnostics: nothing is suppressed, so real compile errors show. clangd reports what clang\n"
    "# cannot compile, in one configuration per file; kernel-lsp reports its rules for every\n"
    "# capability of build.toml and no compiler errors while you type, so the two do not repeat each\n"
    "# other. (A missing header is named by both: by clangd as an error, by kernel-lsp as a note that\n"
    "# its analysis is partial. After `kernel-lsp build`, nvcc's and ptxas' own messages come from\n"
    "# kernel-lsp, per capability.) clang-tidy runs as your .clang-tidy files say; kernel-lsp adds none.\n";

}  // namespace

std::string compile_commands_text(const analyzers::ClangdCommands& commands, const fs::path& directory) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const analyzers::ClangdEntry& entry : commands.entries)
    entries.push_back(
        {{"directory", directory.string()}, {"file", entry.file.string()}, {"arguments", entry.arguments}});
  return entries.dump(2) + "\n";
}

std::string clangd_block_text(const ClangdBlockInputs& inputs) {
  std::string text(kClangdBlockBegin);
  text +=
      "\n"
      "# Written by `kernel-lsp clangd-config` from build.toml: run it again after editing build.toml.\n"
      "# It replaces only the lines between these two markers. Keep your own settings outside them,\n"
      "# each in a YAML document of its own (begun by a line `---`).\n";
  if (inputs.user_database_kept)
    text +=
        "# The compile_commands.json in this folder is your build's and is left as it is: kernel-lsp's,\n"
        "# with your build's flags folded in, is the one in " +
        inputs.database_dir + "/.\n";
  text += std::string(kHashKey) + inputs.database_hash + "\n";
  text += "---\n";
  YAML::Emitter yaml;
  yaml << YAML::BeginMap << YAML::Key << "CompileFlags" << YAML::Value << YAML::BeginMap << YAML::Key
       << "CompilationDatabase" << YAML::Value << inputs.database_dir << YAML::EndMap << YAML::EndMap;
  text +=
      "# clang's command for every C, C++ and CUDA file of the project: CUDA files on the device side\n"
      "# for the most capable capability of their kernels, the torch-ext binding on the host side.\n";
  text += yaml.c_str();
  text += "\n";
  text += kDiagnosticsComment;
  text += std::string(kClangdBlockEnd) + "\n";
  return text;
}

std::string recorded_database_hash(std::string_view clangd_text) {
  auto begin = marker_line(clangd_text, kClangdBlockBegin);
  if (!begin) return {};
  auto end = marker_line(clangd_text, kClangdBlockEnd, *begin);
  std::string_view block = clangd_text.substr(*begin, end ? *end - *begin : std::string_view::npos);
  auto at = marker_line(block, kHashKey);
  if (!at) return {};
  size_t value = *at + kHashKey.size();
  std::string hash(block.substr(value, after_line(block, value) - value));
  while (!hash.empty() && (hash.back() == '\n' || hash.back() == '\r' || hash.back() == ' ')) hash.pop_back();
  return hash;
}

Result<std::string> merged_clangd(const fs::path& path, const std::optional<std::string>& existing,
                                  const std::string& block, bool force) {
  if (!existing) return block;
  const std::string& text = *existing;
  auto begin = marker_line(text, kClangdBlockBegin);
  auto end = begin ? marker_line(text, kClangdBlockEnd, *begin) : marker_line(text, kClangdBlockEnd);
  if (begin && end) {
    std::string rest = text.substr(after_line(text, *end));
    std::string merged = text.substr(0, *begin) + block;
    if (needs_document_start(rest)) merged += "---\n";
    return merged + rest;
  }
  if (begin || end) {
    size_t at = begin ? *begin : *end;
    return make_error_at(
        std::string("has kernel-lsp's ") + (begin ? "opening" : "closing") +
            " marker line but not the other one: remove what is left of kernel-lsp's block by "
            "hand, then run clangd-config again",
        path.string(), line_number(text, at), 0);
  }
  if (!force)
    return make_error(
        path.string() +
        " exists and has no kernel-lsp block, so it is yours: run again with --force to append "
        "kernel-lsp's block to it (your lines are kept), or with --print to see what would be written");
  std::string merged = text;
  if (!merged.empty() && merged.back() != '\n') merged += '\n';
  return merged + block;
}

}  // namespace kl::cli
