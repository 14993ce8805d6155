#pragma once
// Guidance: one section of the cuda-kernels skill, chosen for a construct in the source, a
// rule id, a heading or a free-text topic, rendered as Markdown short enough for a hover (the
// first `max_lines` lines, a code fence closed if the cut falls inside one, and a link to the
// full section). Serves hovers, completion documentation, the `kernel-lsp/guidance` request and
// `kernel-lsp skills show`.
//
// Which copy of the skill: every skill named cuda-kernels in the catalog, in its precedence
// order (workspace, user, bundled); the first copy that has the section answers, so an older
// installed copy without a page falls through to the bundled one.
// Immutable; share between threads (the catalog builds section indexes under its own lock).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "guidance/skill_catalog.h"
#include "guidance/skill_constructs.h"

namespace kl::guidance {

inline constexpr size_t kGuidanceLines = 40;

struct GuidanceQuery {
  std::string rule_id;    // "smem-limit": references/rules/smem-limit.md
  std::string construct;  // "__shfl_xor_sync", "cp.async", "cuda-capabilities"; else a heading
  std::string topic;      // free text: "bank conflicts in shared memory"
};

struct Guidance {
  std::string title;           // the section's heading
  std::string markdown;        // trimmed section + link to the whole of it
  std::filesystem::path file;  // the page, absolute
  std::string relative_file;   // "references/constructs.md"
  uint32_t line = 0;           // the heading's line, 0-based
  std::string skill;           // the skill's name
  bool trimmed = false;
};

class SkillGuidance {
 public:
  SkillGuidance(std::shared_ptr<const SkillCatalog> catalog, const ConstructTable& constructs);

  // Rule id first, then construct, then topic; the first that resolves answers.
  std::optional<Guidance> lookup(const GuidanceQuery& query, size_t max_lines = kGuidanceLines) const;
  std::optional<Guidance> for_construct(const Construct& construct, size_t max_lines = kGuidanceLines) const;
  std::optional<Guidance> for_rule(std::string_view rule_id, size_t max_lines = kGuidanceLines) const;
  std::optional<Guidance> for_heading(std::string_view heading, size_t max_lines = kGuidanceLines) const;
  std::optional<Guidance> for_topic(std::string_view topic, size_t max_lines = kGuidanceLines) const;
  // The construct written at `column` of `line`, and its guidance. `hit` receives the span.
  std::optional<Guidance> at(std::string_view line, size_t column, ConstructScope scope,
                             size_t max_lines = kGuidanceLines, ConstructHit* hit = nullptr) const;

  const ConstructTable& constructs() const { return constructs_; }
  const SkillCatalog& catalog() const { return *catalog_; }

 private:
  std::shared_ptr<const SkillCatalog> catalog_;
  const ConstructTable& constructs_;
};

// Renders one section: bold title, its body up to `max_lines` lines, a link to the page.
Guidance render_guidance(const Skill& skill, const SkillSection& section, size_t max_lines);

// file:///abs/path with the characters a URI cannot hold percent-encoded.
std::string file_uri(const std::filesystem::path& path);

}  // namespace kl::guidance
