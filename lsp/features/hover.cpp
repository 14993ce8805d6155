#include "lsp/features/hover.h"

#include <filesystem>
#include <map>

#include "analyzers/data/arch_table.h"
#include "lsp/features/guidance_at.h"
#include "lsp/features/source_scan.h"
#include "support/line_index.h"

namespace kl::lsp {
namespace {

// ---- what is under the cursor, as facts ----------------------------------------------------

struct KernelHoverFacts {
  const analyzers::KernelInfo* kernel = nullptr;
  std::vector<const analyzers::LaunchSite*> launches;
  std::vector<const analyzers::SharedMemoryOptIn*> opt_ins;
  const analyzers::ArchSelection* archs = nullptr;
  std::vector<const analyzers::Finding*> findings;  // located inside the kernel
  // The tightest static shared-memory limit among the target archs, and whose it is.
  std::optional<uint64_t> static_smem_limit;
  std::string static_smem_limit_arch;
};

struct FeatureHoverFacts {
  std::string spelling;                         // as the source writes it
  std::string feature_id;                       // when the parse recorded a use
  const analyzers::Feature* feature = nullptr;  // from the feature table, when known
  const analyzers::ArchSelection* archs = nullptr;
  std::vector<const analyzers::Finding*> findings;  // at this use
};

// ---- the facts as Markdown -----------------------------------------------------------------

std::string bytes_text(uint64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " B";
}

std::string findings_summary(const std::vector<const analyzers::Finding*>& findings) {
  if (findings.empty()) return "none";
  std::map<std::string, int> per_rule;
  for (const auto* finding : findings)
    per_rule[std::string(analyzers::severity_name(finding->severity)) + " `" + finding->rule_id + "`"]++;
  std::string text;
  for (const auto& [label, count] : per_rule) {
    if (!text.empty()) text += ", ";
    text += std::to_string(count) + " " + label;
  }
  return text;
}

std::string describe_archs(const analyzers::ArchSelection& archs) {
  std::string text;
  for (const auto& capability : archs.archs) {
    if (!text.empty()) text += ", ";
    text += capability.sm_name();
  }
  if (text.empty()) text = "none";
  std::string origin = archs.origin;
  if (archs.origin_location) {
    std::string file = std::filesystem::path(archs.origin_location->file).filename().string();
    origin = (origin.empty() ? file : origin) + " line " +
             std::to_string(archs.origin_location->range.start.line + 1);
  }
  if (!origin.empty()) text += " (from " + origin + ")";
  return text;
}

std::string render_kernel_hover(const KernelHoverFacts& facts) {
  const analyzers::KernelInfo& kernel = *facts.kernel;
  std::string md = "```cuda\n__global__ " + kernel.qualified_name + "\n```\n";
  md += "CUDA kernel\n\n";
  if (kernel.max_threads_per_block) {
    md += "- **Launch bounds:** at most " + std::to_string(*kernel.max_threads_per_block) +
          " threads per block";
    if (kernel.min_blocks_per_sm)
      md += ", at least " + std::to_string(*kernel.min_blocks_per_sm) + " blocks per SM";
    md += "\n";
  } else {
    md += "- **Launch bounds:** none (the compiler budgets registers for 1024 threads per block)\n";
  }
  md += "- **Static shared memory:** " + bytes_text(kernel.static_shared_bytes);
  if (facts.static_smem_limit)
    md += " of " + bytes_text(*facts.static_smem_limit) + " allowed (" + facts.static_smem_limit_arch + ")";
  md += "\n";
  for (const auto& variable : kernel.shared_variables) {
    md += "  - `" + variable.name +
          "`: " + (variable.is_dynamic ? std::string("dynamic (extern)") : bytes_text(variable.bytes));
    if (variable.declared_alignment) md += ", aligned to " + std::to_string(variable.declared_alignment);
    md += "\n";
  }
  for (const auto* opt_in : facts.opt_ins) {
    md += "- **Dynamic shared memory opt-in:** " +
          (opt_in->bytes ? bytes_text(*opt_in->bytes) : std::string("a runtime value")) + " (line " +
          std::to_string(opt_in->location.range.start.line + 1) + ")\n";
  }
  for (const auto* launch : facts.launches) {
    md += "- **Launch** at line " + std::to_string(launch->location.range.start.line + 1);
    if (launch->block_x) {
      md += ": block (" + std::to_string(*launch->block_x) + ", " +
            std::to_string(launch->block_y.value_or(1)) + ", " + std::to_string(launch->block_z.value_or(1)) +
            ")";
    }
    if (launch->dynamic_shared_bytes)
      md += ", " + bytes_text(*launch->dynamic_shared_bytes) + " dynamic shared memory";
    md += "\n";
  }
  if (facts.archs) md += "- **Target architectures:** " + describe_archs(*facts.archs) + "\n";
  md += "- **Findings:** " + findings_summary(facts.findings) + "\n";
  return md;
}

std::string render_feature_hover(const FeatureHoverFacts& facts) {
  std::string md = "```cuda\n" + facts.spelling + "\n```\n";
  if (facts.feature) {
    md += "Requires **" + facts.feature->requirement() + "**";
    if (!facts.feature->summary.empty()) md += " — " + facts.feature->summary;
    md += "\n\n";
    if (facts.archs && !facts.archs->archs.empty()) {
      md += "- **Target architectures:** ";
      bool first = true;
      for (const auto& capability : facts.archs->archs) {
        if (!first) md += ", ";
        first = false;
        md += capability.sm_name() + (facts.feature->available_on(capability) ? " ✓" : " ✗");
      }
      std::string origin = describe_archs(*facts.archs);
      size_t paren = origin.find(" (from ");
      if (paren != std::string::npos) md += origin.substr(paren);
      md += "\n";
    }
    if (!facts.feature->guard.empty()) md += "- **Guard:** `#if " + facts.feature->guard + "`\n";
  } else if (!facts.feature_id.empty()) {
    md += "Architecture-dependent feature `" + facts.feature_id + "`\n";
  }
  // The editor shows the diagnostic's own message in the same hover: name the rules, do not
  // repeat what they say.
  std::string reported;
  for (const auto* finding : facts.findings)
    if (reported.find("`" + finding->rule_id + "`") == std::string::npos)
      reported += (reported.empty() ? "" : ", ") + ("`" + finding->rule_id + "`");
  if (!reported.empty()) md += "- **Reported here:** " + reported + "\n";
  return md;
}

// ---- finding the facts ---------------------------------------------------------------------

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

// ---- the skill's guidance, after the facts -------------------------------------------------

std::string append_guidance(std::string markdown, const guidance::Guidance& guidance) {
  if (!markdown.empty() && markdown.back() != '\n') markdown += '\n';
  return markdown + "\n---\n\n" + guidance.markdown;
}

// `hover` with the guidance for the construct at `position` added (or made from it alone).
std::optional<HoverResult> with_guidance(std::optional<HoverResult> hover,
                                         const guidance::SkillGuidance& guidance, std::string_view text,
                                         analyzers::Position position, guidance::ConstructScope scope) {
  std::optional<GuidanceAtPosition> found = guidance_at(guidance, text, position, scope);
  if (!found) return hover;
  if (hover) {
    hover->markdown = append_guidance(std::move(hover->markdown), found->guidance);
    return hover;
  }
  return HoverResult{found->guidance.markdown, found->range};
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

std::optional<HoverResult> source_hover(const analyzers::FileAnalysis& analysis, std::string_view text,
                                        analyzers::Position position, const analyzers::FeatureTable* features,
                                        const guidance::SkillGuidance& guidance) {
  return with_guidance(hover_at(analysis, text, position, features), guidance, text, position,
                       guidance::ConstructScope::Cuda);
}

std::optional<HoverResult> build_toml_hover(const guidance::SkillGuidance& guidance, std::string_view text,
                                            analyzers::Position position) {
  return with_guidance(std::nullopt, guidance, text, position, guidance::ConstructScope::Toml);
}

}  // namespace kl::lsp
