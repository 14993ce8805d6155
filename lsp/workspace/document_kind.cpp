#include "lsp/workspace/document_kind.h"

#include "support/file_kinds.h"

namespace kl::lsp {

bool is_build_toml(const std::filesystem::path& file) { return file.filename() == "build.toml"; }

bool is_skill_file(const std::filesystem::path& file) { return file.filename() == "SKILL.md"; }

DocumentKind classify_document(std::string_view language_id, const std::filesystem::path& file,
                               bool in_kernel_project) {
  if (is_build_toml(file)) return DocumentKind::BuildToml;  // whatever the editor calls TOML
  if (is_skill_file(file)) return DocumentKind::Skill;      // whatever the editor calls Markdown
  if (language_id == "cuda" || language_id == "cuda-cpp") return DocumentKind::Source;
  if (is_cuda_file(file)) return DocumentKind::Source;
  // A C++ file is a kernel source only inside a kernel project (torch-ext bindings, headers
  // shared with .cu files); elsewhere it is somebody else's C++.
  if (is_cxx_file(file) && in_kernel_project) return DocumentKind::Source;
  return DocumentKind::Other;
}

}  // namespace kl::lsp
