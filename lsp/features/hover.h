#pragma once
// textDocument/hover as plain data: what the cursor is on, as Markdown, with the span hovered.
//  - In a kernel source (source_hover): a kernel (its name at the definition or at a launch:
//    launch bounds, shared memory against the tightest target's limit, launches, target
//    architectures, findings in it), or a CUDA intrinsic/type/macro that needs a minimum
//    architecture (a recorded use from the parse, or any spelling the feature table knows); then
//    the skill's section for the construct under the cursor (guidance_at.h), or that section
//    alone where there are no facts (`__syncthreads` and `__shared__` need no architecture).
//  - In a build.toml (build_toml_hover): the skill's section for the key under the cursor.
// Pure; reads one snapshot (text, analysis, immutable guidance); UTF-8 columns.
#include <optional>
#include <string>
#include <string_view>

#include "analyzers/data/feature_table.h"
#include "analyzers/pipeline/analysis.h"
#include "guidance/skill_guidance.h"

namespace kl::lsp {

struct HoverResult {
  std::string markdown;
  analyzers::Range range;  // the word hovered, UTF-8 columns
};

// A kernel source: the facts of `analysis` at `position` (of `text`, the analysed text), then
// the guidance. `features` may be null (no table: intrinsics are described from the recorded
// use only).
std::optional<HoverResult> source_hover(const analyzers::FileAnalysis& analysis, std::string_view text,
                                        analyzers::Position position, const analyzers::FeatureTable* features,
                                        const guidance::SkillGuidance& guidance);

// A build.toml: the guidance for the key at `position`, or nothing (a value, a comment).
std::optional<HoverResult> build_toml_hover(const guidance::SkillGuidance& guidance, std::string_view text,
                                            analyzers::Position position);

// The facts part of source_hover alone, without guidance.
std::optional<HoverResult> hover_at(const analyzers::FileAnalysis& analysis, std::string_view text,
                                    analyzers::Position position, const analyzers::FeatureTable* features);

}  // namespace kl::lsp
