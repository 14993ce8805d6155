#pragma once
// Completion from the snippet data (snippets/*.toml): the snippets whose contexts hold where the
// word being typed begins (snippet_context.h: a kernel template at file scope of a .cu, a device
// helper inside a kernel body, a binding in torch-ext/, a table in build.toml, a test in tests/*.py,
// ...) and whose prefix matches that word; the text they replace (the typed word, '-' included,
// so `kl-rms` becomes the snippet and not `kl-` + snippet); and their documentation (description +
// the skill section named by the snippet's `guidance`). Pure; plain data, UTF-8 columns.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "guidance/skill_guidance.h"
#include "guidance/snippet_catalog.h"
#include "lsp/features/snippet_context.h"

namespace kl::lsp {

struct SnippetCompletion {
  const guidance::Snippet* snippet = nullptr;
  analyzers::Range replace;   // the typed word (empty range at the cursor when none)
  std::string documentation;  // Markdown
};

// Whether a snippet's prefix matches the typed word (case-insensitive): the word begins the
// prefix or one of its '-'-separated parts (`rms` and `kl-rms` both find `kl-rmsnorm`). An empty
// word matches everything (completion asked for explicitly).
bool snippet_prefix_matches(std::string_view prefix, std::string_view typed);

// `guidance` may be null (no skill found): documentation is the description alone.
std::vector<SnippetCompletion> snippet_completions(const guidance::SnippetCatalog& catalog,
                                                   const guidance::SkillGuidance* guidance,
                                                   const SnippetDocument& document,
                                                   analyzers::Position position);

// The kernel project of a file: the folder of the nearest build.toml above it. Reads the file
// system (a few stat calls); the one impure helper here.
std::optional<std::filesystem::path> snippet_project_root(const std::filesystem::path& file);

}  // namespace kl::lsp
