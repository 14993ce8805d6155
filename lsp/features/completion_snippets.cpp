#include "lsp/features/completion_snippets.h"

#include <algorithm>

#include "support/line_index.h"

namespace kl::lsp {
namespace {

bool prefix_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

std::string lower_extension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace

std::vector<guidance::SnippetLanguage> snippet_languages(DocumentKind kind, const std::filesystem::path& file) {
  switch (kind) {
    case DocumentKind::Source:
      return {guidance::SnippetLanguage::Cuda, guidance::SnippetLanguage::Cpp};
    case DocumentKind::BuildToml:
      return {guidance::SnippetLanguage::Toml};
    case DocumentKind::Skill:
    case DocumentKind::Other:
      break;
  }
  const std::string ext = lower_extension(file);
  if (ext == ".py") return {guidance::SnippetLanguage::Python};
  if (ext == ".cu" || ext == ".cuh") return {guidance::SnippetLanguage::Cuda, guidance::SnippetLanguage::Cpp};
  if (ext == ".cpp" || ext == ".h" || ext == ".hpp" || ext == ".cc") return {guidance::SnippetLanguage::Cpp};
  return {};
}

std::vector<SnippetCompletion> snippet_completions(const guidance::SnippetCatalog& catalog,
                                                   const guidance::SkillGuidance* guidance, std::string_view text,
                                                   analyzers::Position position,
                                                   const std::vector<guidance::SnippetLanguage>& languages) {
  std::vector<SnippetCompletion> out;
  if (languages.empty()) return out;
  LineIndex lines(text);
  if (position.line >= lines.line_count()) return out;
  std::string_view line = lines.line_text(position.line);
  size_t end = std::min<size_t>(position.column, line.size());
  size_t begin = end;
  while (begin > 0 && prefix_char(line[begin - 1])) --begin;
  std::string_view before = line.substr(0, begin);
  while (!before.empty() && (before.back() == ' ' || before.back() == '\t')) before.remove_suffix(1);
  // A member or a qualified name is being typed: a whole kernel is not what anyone wants there.
  if (!before.empty() && (before.back() == '.' || before.back() == ':' || before.ends_with("->"))) return out;
  const bool toml = languages.size() == 1 && languages.front() == guidance::SnippetLanguage::Toml;
  if (toml && !before.empty()) return out;  // a whole build.toml only at the start of a line

  for (const auto& snippet : catalog.all()) {
    if (std::find(languages.begin(), languages.end(), snippet.language) == languages.end()) continue;
    SnippetCompletion item;
    item.snippet = &snippet;
    item.replace = {{position.line, static_cast<uint32_t>(begin)},
                    {position.line, static_cast<uint32_t>(end)}};
    item.documentation = snippet.description;
    if (guidance && !snippet.guidance.empty())
      if (auto section = guidance->lookup({"", snippet.guidance, ""}))
        item.documentation += "\n\n---\n\n" + section->markdown;
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace kl::lsp
