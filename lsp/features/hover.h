#pragma once
// What the cursor is on, for textDocument/hover: a kernel (its name at the definition or at a
// launch), or a CUDA intrinsic/type/macro that needs a minimum architecture (a recorded use
// from the parse, or any spelling the feature table knows). Pure; reads one analysis snapshot.
#include <optional>
#include <string>
#include <string_view>

#include "analyzers/pipeline/analysis.h"
#include "analyzers/data/feature_table.h"

namespace kl::lsp {

struct HoverResult {
  std::string markdown;
  analyzers::Range range;  // the word hovered, UTF-8 columns
};

// `features` may be null (no table: intrinsics are described from the recorded use only).
std::optional<HoverResult> hover_at(const analyzers::FileAnalysis& analysis, std::string_view text,
                                    analyzers::Position position, const analyzers::FeatureTable* features);

}  // namespace kl::lsp
