#pragma once
// Skill guidance where the cursor is: the construct under it (snippets/constructs.toml) and the
// section of the cuda-kernels skill that explains it. Hovers append it (hover.h); the
// kernel-lsp/guidance request answers with it when asked for a position. Pure; reads one text
// snapshot; the guidance is immutable.
#include <filesystem>
#include <optional>
#include <string_view>

#include "analyzers/finding.h"
#include "guidance/skill_guidance.h"

namespace kl::lsp {

// The construct at `position` (UTF-8 column) of `text`, with its guidance and span.
struct GuidanceAtPosition {
  guidance::Guidance guidance;
  analyzers::Range range;  // the construct's spelling in the text
};
std::optional<GuidanceAtPosition> guidance_at(const guidance::SkillGuidance& guidance, std::string_view text,
                                              analyzers::Position position, guidance::ConstructScope scope);

// Which constructs a file can hold: build.toml keys in a build.toml, CUDA constructs elsewhere.
guidance::ConstructScope construct_scope(const std::filesystem::path& file);

}  // namespace kl::lsp
