#pragma once
// Which open documents the server analyses, and how. Editors disagree on CUDA's language id
// (VS Code: cuda-cpp, Neovim: cuda, others: cpp), so the id is a hint and the extension decides
// in the ambiguous cases; a build.toml and a SKILL.md are known by their file name alone. Pure
// functions.
#include <filesystem>
#include <string_view>

namespace kl::lsp {

enum class DocumentKind {
  Source,     // analysed with Analyzer::analyze_source
  BuildToml,  // analysed with Analyzer::analyze_build_toml; its dependents follow its edits
  Skill,      // an agent skill's SKILL.md, checked with guidance::validate_skill_text
  Other,      // tracked (so edits apply) but not analysed
};

// `in_kernel_project`: a build.toml was found above the file (decides .h/.cpp).
DocumentKind classify_document(std::string_view language_id, const std::filesystem::path& file,
                               bool in_kernel_project);

bool is_build_toml(const std::filesystem::path& file);
// A file the server checks as an agent skill (named SKILL.md).
bool is_skill_file(const std::filesystem::path& file);

}  // namespace kl::lsp
