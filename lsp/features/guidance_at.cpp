#include "lsp/features/guidance_at.h"

#include "lsp/workspace/document_kind.h"
#include "support/line_index.h"

namespace kl::lsp {

std::optional<GuidanceAtPosition> guidance_at(const guidance::SkillGuidance& guidance, std::string_view text,
                                              analyzers::Position position, guidance::ConstructScope scope) {
  LineIndex lines(text);
  if (position.line >= lines.line_count()) return std::nullopt;
  std::string_view line = lines.line_text(position.line);
  guidance::ConstructHit hit;
  std::optional<guidance::Guidance> found =
      guidance.at(line, position.column, scope, guidance::kGuidanceLines, &hit);
  if (!found) return std::nullopt;
  analyzers::Range range{{position.line, static_cast<uint32_t>(hit.begin)},
                         {position.line, static_cast<uint32_t>(hit.end)}};
  return GuidanceAtPosition{std::move(*found), range};
}

guidance::ConstructScope construct_scope(const std::filesystem::path& file) {
  return is_build_toml(file) ? guidance::ConstructScope::Toml : guidance::ConstructScope::Cuda;
}

}  // namespace kl::lsp
