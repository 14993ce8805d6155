#pragma once
// Markdown for hovers, assembled from plain facts. Kept apart from deciding *what* is under the
// cursor (hover.h) so that richer content (skill guidance for a rule or an intrinsic) is added
// here without touching target resolution. Pure functions.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/pipeline/analysis.h"
#include "analyzers/data/feature_table.h"
#include "guidance/skill_guidance.h"

namespace kl::lsp {

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
  std::string spelling;                           // as the source writes it
  std::string feature_id;                         // when the parse recorded a use
  const analyzers::Feature* feature = nullptr;    // from the feature table, when known
  const analyzers::ArchSelection* archs = nullptr;
  std::vector<const analyzers::Finding*> findings;  // at this use
};

std::string render_kernel_hover(const KernelHoverFacts& facts);
std::string render_feature_hover(const FeatureHoverFacts& facts);

// A section of the cuda-kernels skill (already trimmed for a hover, with its link) as a hover.
std::string render_guidance_hover(const guidance::Guidance& guidance);
// `markdown` (a kernel or intrinsic hover), a rule, then the guidance section.
std::string append_guidance(std::string markdown, const guidance::Guidance& guidance);

// "sm_75, sm_80 (build.toml line 7)"
std::string describe_archs(const analyzers::ArchSelection& archs);

}  // namespace kl::lsp
