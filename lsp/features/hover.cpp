#include "lsp/features/hover.h"

#include "analyzers/data/arch_table.h"
#include "lsp/features/hover_content.h"
#include "lsp/features/source_scan.h"
#include "support/line_index.h"

namespace kl::lsp {
namespace {

bool range_contains(const analyzers::Range& range, analyzers::Position p) {
  return !(p < range.start) && !(range.end < p);
}

std::optional<HoverResult> kernel_hover(const analyzers::FileAnalysis& analysis,
                                        const analyzers::KernelInfo& kernel, analyzers::Range range) {
  KernelHoverFacts facts;
  facts.kernel = &kernel;
  facts.archs = &analysis.archs;
  for (const auto& launch : analysis.facts.launches)
    if (launch.kernel_name == kernel.name || launch.kernel_name == kernel.qualified_name)
      facts.launches.push_back(&launch);
  for (const auto& opt_in : analysis.facts.shared_opt_ins)
    if (opt_in.kernel_name == kernel.name || opt_in.kernel_name == kernel.qualified_name)
      facts.opt_ins.push_back(&opt_in);
  for (const auto& finding : analysis.findings)
    if (range_contains(kernel.body_range, finding.location.range.start)) facts.findings.push_back(&finding);
  const analyzers::ArchTable& table = analyzers::ArchTable::builtin();
  for (const auto& capability : analysis.archs.archs) {
    const analyzers::ArchLimits* limits = table.find(capability);
    if (limits && (!facts.static_smem_limit || limits->static_smem_per_block < *facts.static_smem_limit)) {
      facts.static_smem_limit = limits->static_smem_per_block;
      facts.static_smem_limit_arch = capability.sm_name();
    }
  }
  return HoverResult{render_kernel_hover(facts), range};
}

const analyzers::Feature* lookup_feature(const analyzers::FeatureTable& table, const std::string& word) {
  if (auto found = table.match_function(word, ""); !found.empty()) return found.front();
  if (auto found = table.match_macro(word); !found.empty()) return found.front();
  if (auto found = table.match_type(word); !found.empty()) return found.front();
  return nullptr;
}

}  // namespace

std::optional<HoverResult> hover_at(const analyzers::FileAnalysis& analysis, std::string_view text,
                                    analyzers::Position position, const analyzers::FeatureTable* features) {
  LineIndex lines(text);
  size_t offset = lines.offset_of(position.line, position.column);
  std::optional<TextSpan> word_span = identifier_at(text, offset);
  if (!word_span) return std::nullopt;
  std::string word(text.substr(word_span->begin, word_span->end - word_span->begin));
  analyzers::Range range;
  lines.position_of(word_span->begin, range.start.line, range.start.column);
  lines.position_of(word_span->end, range.end.line, range.end.column);

  for (const auto& kernel : analysis.facts.kernels)
    if (kernel.name == word || range_contains(kernel.location.range, position))
      return kernel_hover(analysis, kernel, range);

  FeatureHoverFacts facts;
  facts.spelling = word;
  facts.archs = &analysis.archs;
  for (const auto& use : analysis.facts.feature_uses) {
    if (range_contains(use.location.range, position)) {
      facts.feature_id = use.feature_id;
      facts.spelling = use.spelling;
      break;
    }
  }
  if (features) {
    if (!facts.feature_id.empty()) facts.feature = features->find(facts.feature_id);
    if (!facts.feature) facts.feature = lookup_feature(*features, word);
  }
  if (facts.feature_id.empty() && !facts.feature) return std::nullopt;
  for (const auto& finding : analysis.findings)
    if (range_contains(finding.location.range, position)) facts.findings.push_back(&finding);
  return HoverResult{render_feature_hover(facts), range};
}

}  // namespace kl::lsp
