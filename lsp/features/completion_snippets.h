#pragma once
// Completion from the snippet data (snippets/*.toml): which snippets fit the document (CUDA and
// C++ binding snippets in kernel sources, the build.toml one in build.toml, the Python one in
// .py files), the text they replace (the typed prefix, '-' included, so `kl-rms` becomes the
// snippet and not `kl-` + snippet), and their documentation (description + the skill section
// named by the snippet's `guidance`). Nothing is offered after `.`, `->` or `::` (a member is
// being typed) or, in build.toml, right of a key. Pure; plain data, UTF-8 columns.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "lsp/workspace/document_kind.h"
#include "guidance/skill_guidance.h"
#include "guidance/snippet_catalog.h"

namespace kl::lsp {

struct SnippetCompletion {
  const guidance::Snippet* snippet = nullptr;
  analyzers::Range replace;   // the typed prefix (empty range at the cursor when none)
  std::string documentation;  // Markdown
};

std::vector<guidance::SnippetLanguage> snippet_languages(DocumentKind kind, const std::filesystem::path& file);

// `guidance` may be null (no skill found): documentation is the description alone.
std::vector<SnippetCompletion> snippet_completions(const guidance::SnippetCatalog& catalog,
                                                   const guidance::SkillGuidance* guidance, std::string_view text,
                                                   analyzers::Position position,
                                                   const std::vector<guidance::SnippetLanguage>& languages);

}  // namespace kl::lsp
