#include "lsp/workspace/document_kind.h"

#include <algorithm>
#include <array>
#include <string>

namespace kl::lsp {
namespace {

std::string lower_extension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

bool is_cuda_extension(const std::string& ext) { return ext == ".cu" || ext == ".cuh"; }

bool is_cxx_extension(const std::string& ext) {
  static constexpr std::array<std::string_view, 8> kCxx = {".h",   ".hpp", ".hh",  ".hxx",
                                                           ".cpp", ".cc",  ".cxx", ".inl"};
  return std::find(kCxx.begin(), kCxx.end(), ext) != kCxx.end();
}

}  // namespace

bool is_build_toml(const std::filesystem::path& file) { return file.filename() == "build.toml"; }

bool is_skill_file(const std::filesystem::path& file) { return file.filename() == "SKILL.md"; }

DocumentKind classify_document(std::string_view language_id, const std::filesystem::path& file,
                               bool in_kernel_project) {
  if (is_build_toml(file)) return DocumentKind::BuildToml;  // whatever the editor calls TOML
  if (is_skill_file(file)) return DocumentKind::Skill;      // whatever the editor calls Markdown
  std::string ext = lower_extension(file);
  if (language_id == "cuda" || language_id == "cuda-cpp") return DocumentKind::Source;
  if (is_cuda_extension(ext)) return DocumentKind::Source;
  // A C++ file is a kernel source only inside a kernel project (torch-ext bindings, headers
  // shared with .cu files); elsewhere it is somebody else's C++.
  if (is_cxx_extension(ext) && in_kernel_project) return DocumentKind::Source;
  return DocumentKind::Other;
}

}  // namespace kl::lsp
