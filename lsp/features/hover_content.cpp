#include "lsp/features/hover_content.h"

#include <filesystem>
#include <map>

namespace kl::lsp {
namespace {

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

}  // namespace

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
    md += "  - `" + variable.name + "`: " +
          (variable.is_dynamic ? std::string("dynamic (extern)") : bytes_text(variable.bytes));
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
            std::to_string(launch->block_y.value_or(1)) + ", " +
            std::to_string(launch->block_z.value_or(1)) + ")";
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
    if (!facts.feature->guard.empty())
      md += "- **Guard:** `#if " + facts.feature->guard + "`\n";
  } else if (!facts.feature_id.empty()) {
    md += "Architecture-dependent feature `" + facts.feature_id + "`\n";
  }
  for (const auto* finding : facts.findings)
    md += "\n**" + finding->rule_id + ":** " + finding->message + "\n";
  return md;
}

std::string render_guidance_hover(const guidance::Guidance& guidance) { return guidance.markdown; }

std::string append_guidance(std::string markdown, const guidance::Guidance& guidance) {
  if (!markdown.empty() && markdown.back() != '\n') markdown += '\n';
  return markdown + "\n---\n\n" + render_guidance_hover(guidance);
}

}  // namespace kl::lsp
