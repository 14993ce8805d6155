#pragma once
// Skill guidance where the cursor is: the construct under it (snippets/constructs.toml) and the
// cuda-kernels section that explains it, appended to the kernel/intrinsic hover when there is
// one (hover.h), or as the whole hover when there is not (`__syncthreads`, `__shared__` and
// build.toml keys need no architecture, so hover.h knows nothing about them). Pure; reads one
// text snapshot; the guidance is immutable.
#include <optional>
#include <string_view>

#include "analyzers/finding.h"
#include "lsp/features/hover.h"
#include "guidance/skill_guidance.h"

namespace kl::lsp {

// The construct at `position` (UTF-8 column) of `text`, with its guidance and span.
struct GuidanceAtPosition {
  guidance::Guidance guidance;
  analyzers::Range range;  // the construct's spelling in the text
};
std::optional<GuidanceAtPosition> guidance_at(const guidance::SkillGuidance& guidance, std::string_view text,
                                              analyzers::Position position, guidance::ConstructScope scope);

// `hover` with the guidance for the construct at `position` added (or made from it alone).
std::optional<HoverResult> with_guidance(std::optional<HoverResult> hover, const guidance::SkillGuidance& guidance,
                                         std::string_view text, analyzers::Position position,
                                         guidance::ConstructScope scope);

}  // namespace kl::lsp
