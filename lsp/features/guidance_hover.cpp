#include "lsp/features/guidance_hover.h"

#include "lsp/features/hover_content.h"
#include "support/line_index.h"

namespace kl::lsp {

std::optional<GuidanceAtPosition> guidance_at(const guidance::SkillGuidance& guidance, std::string_view text,
                                              analyzers::Position position, guidance::ConstructScope scope) {
  LineIndex lines(text);
  if (position.line >= lines.line_count()) return std::nullopt;
  std::string_view line = lines.line_text(position.line);
  guidance::ConstructHit hit;
  std::optional<guidance::Guidance> found = guidance.at(line, position.column, scope, guidance::kGuidanceLines, &hit);
  if (!found) return std::nullopt;
  analyzers::Range range{{position.line, static_cast<uint32_t>(hit.begin)},
                         {position.line, static_cast<uint32_t>(hit.end)}};
  return GuidanceAtPosition{std::move(*found), range};
}

std::optional<HoverResult> with_guidance(std::optional<HoverResult> hover, const guidance::SkillGuidance& guidance,
                                         std::string_view text, analyzers::Position position,
                                         guidance::ConstructScope scope) {
  std::optional<GuidanceAtPosition> found = guidance_at(guidance, text, position, scope);
  if (!found) return hover;
  if (hover) {
    hover->markdown = append_guidance(std::move(hover->markdown), found->guidance);
    return hover;
  }
  return HoverResult{render_guidance_hover(found->guidance), found->range};
}

}  // namespace kl::lsp
