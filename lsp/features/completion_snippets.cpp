#include "lsp/features/completion_snippets.h"

#include <algorithm>
#include <cctype>

#include "analyzers/project/project_locator.h"
#include "support/line_index.h"
#include "support/text.h"

namespace kl::lsp {
namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

using kl::starts_with_ignoring_case;

bool offered_in_any(const guidance::Snippet& snippet, const std::vector<guidance::SnippetContext>& contexts) {
  return std::any_of(contexts.begin(), contexts.end(),
                     [&](guidance::SnippetContext context) { return snippet.offered_in(context); });
}

}  // namespace

bool snippet_prefix_matches(std::string_view prefix, std::string_view typed) {
  if (typed.empty() || starts_with_ignoring_case(prefix, typed)) return true;
  for (size_t dash = prefix.find('-'); dash != std::string_view::npos; dash = prefix.find('-', dash + 1))
    if (starts_with_ignoring_case(prefix.substr(dash + 1), typed)) return true;
  return false;
}

std::vector<SnippetCompletion> snippet_completions(const guidance::SnippetCatalog& catalog,
                                                   const guidance::SkillGuidance* guidance,
                                                   const SnippetDocument& document,
                                                   analyzers::Position position) {
  std::vector<SnippetCompletion> out;
  LineIndex lines(document.text);
  if (position.line >= lines.line_count()) return out;
  std::string_view line = lines.line_text(position.line);
  const size_t end = std::min<size_t>(position.column, line.size());
  size_t begin = end;
  while (begin > 0 && word_char(line[begin - 1])) --begin;
  const std::string_view typed = line.substr(begin, end - begin);
  const auto contexts = snippet_contexts_at(document, lines.line_start(position.line) + begin);
  if (contexts.empty()) return out;

  for (const auto& snippet : catalog.all()) {
    if (!offered_in_any(snippet, contexts) || !snippet_prefix_matches(snippet.prefix, typed)) continue;
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

std::optional<std::filesystem::path> snippet_project_root(const std::filesystem::path& file) {
  auto build_toml = analyzers::find_build_toml(file);
  if (!build_toml) return std::nullopt;
  return build_toml->parent_path();
}

}  // namespace kl::lsp
