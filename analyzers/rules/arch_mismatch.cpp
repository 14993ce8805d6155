// arch-mismatch: a feature used in code that is active for an architecture build.toml builds
// for, where that architecture lacks the feature. Activity per arch comes from the parses
// (each arch's parse sees only the code its #if guards leave in), so a guarded use is silent;
// which uses nvcc checks at all (PTX only in code it emits, templates only as instantiated) is
// the feature collector's business (model/feature_collector.h). A use outside a kernel names
// the kernel that reaches it, with a note there.
#include <algorithm>
#include <map>
#include <set>

#include "analyzers/rules/arch_fallback.h"
#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"
#include "support/line_index.h"

namespace kl::analyzers {
namespace {
void check_arch_mismatch(const SourceInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kArchMismatchRule;  // listed in rule_catalog.cpp
const Rule kArchMismatchRule = {
    .id = "arch-mismatch",
    .default_severity = Severity::Error,
    .summary = "code active for a build.toml capability uses a feature that architecture lacks",
    .guidance_page = "references/rules/arch-mismatch.md",
    .source_check = &check_arch_mismatch,
};

namespace {

struct Mismatch {
  const FeatureUse* use = nullptr;
  const Feature* feature = nullptr;
  std::vector<Capability> lacking;
};

std::string join_archs(const std::vector<Capability>& archs) {
  std::string out;
  for (size_t i = 0; i < archs.size(); ++i) {
    if (i) out += i + 1 == archs.size() ? " and " : ", ";
    out += archs[i].text();
  }
  return out;
}

// "#if <guard>" above the use's lines, "#else" with what the other archs do instead, "#endif"
// below: guarding alone would leave those archs without the code, silently (a warp reduction
// that returns lane 0's own value). Where the replacement is mechanical it is written out
// (arch_fallback.h); otherwise the `#else` keeps a TODO and a `#warning`. Multi-line statements
// need a wider guard; the message says what to guard, the edit covers the lines of the use.
Fix guard_fix(const SourceInput& input, const FeatureUse& use, const Feature& feature) {
  LineIndex lines(input.text);
  uint32_t line = use.location.range.start.line;
  uint32_t last = std::max(use.location.range.end.line, line);
  ArchFallback fallback = arch_fallback(feature, line == last ? lines.line_text(line) : std::string_view());
  Fix fix;
  fix.title = "Guard with #if " + feature.guard +
              (fallback.working ? " and a warp-shuffle fallback for the other archs" : " and an #else to fill in");
  fix.edits.push_back({input.file, Range{{line, 0}, {line, 0}}, "#if " + feature.guard + "\n"});
  std::string tail = "#else\n" + fallback.lines + "#endif\n";
  uint32_t after = last + 1;
  if (after < lines.line_count()) {
    fix.edits.push_back({input.file, Range{{after, 0}, {after, 0}}, tail});
  } else {
    auto end_column = static_cast<uint32_t>(lines.line_text(last).size());
    fix.edits.push_back({input.file, Range{{last, end_column}, {last, end_column}}, "\n" + tail});
  }
  return fix;
}

// Edits to build.toml: an arch-specific feature on the plain arch ("9.0" using wgmma) is fixed
// by naming the specific target; otherwise the archs that lack the feature are dropped.
std::vector<Fix> capability_fixes(const SourceInput& input, const Mismatch& m) {
  std::vector<Fix> fixes;
  std::vector<TextEdit> retarget;
  for (const auto& lacking : m.lacking) {
    for (const auto& origin : input.origins) {
      if (!(origin.arch == lacking) || !origin.location) continue;
      for (const auto& allowed : m.feature->only) {
        if (allowed.number() == lacking.number() && allowed.variant != lacking.variant) {
          Capability specific = allowed;
          specific.ptx = lacking.ptx;
          retarget.push_back({origin.location->file, origin.location->range, "\"" + specific.text() + "\""});
          break;
        }
      }
    }
  }
  if (!retarget.empty()) fixes.push_back({"Build for the arch-specific target in build.toml", retarget});
  if (input.capability_list) {
    std::vector<std::string> kept;
    for (const auto& origin : input.origins) {
      bool drop = std::any_of(m.lacking.begin(), m.lacking.end(),
                              [&](const Capability& c) { return c == origin.arch; });
      if (!drop) kept.push_back("\"" + origin.arch.text() + "\"");
    }
    if (!kept.empty()) {
      std::string list = "[";
      for (size_t i = 0; i < kept.size(); ++i) list += (i ? ", " : "") + kept[i];
      list += "]";
      fixes.push_back({"Drop " + join_archs(m.lacking) + " from cuda-capabilities",
                       {{input.capability_list->file, input.capability_list->range, list}}});
    }
  }
  return fixes;
}

// "build.toml builds this code for ", or, when the list is a guess, that it is one.
std::string builds_for(const SourceInput& input) {
  if (input.archs_assumed) return "with " + input.arch_origin + " this code would be built for ";
  return input.arch_origin + " builds this code for ";
}

// Where the user drops the archs that lack the feature: build.toml's list, the project's own
// build files, or nowhere (an assumption: declare the archs instead).
std::string drop_advice(const SourceInput& input, const Mismatch& m) {
  if (input.archs_assumed)
    return "declare the archs the project builds for (a build.toml's cuda-capabilities, -gencode flags in "
           "setup.py or CMake, TORCH_CUDA_ARCH_LIST).";
  if (input.capability_list || input.arch_origin.rfind("build.toml", 0) == 0)
    return "drop " + join_archs(m.lacking) + " from cuda-capabilities.";
  return "stop building for " + join_archs(m.lacking) + " in " + input.arch_origin + ".";
}

void check_arch_mismatch(const SourceInput& input, std::vector<Finding>& out) {
  // Group by (place, feature): one finding lists every arch that lacks it.
  std::map<std::tuple<uint32_t, uint32_t, std::string, std::string>, Mismatch> by_place;
  std::vector<std::tuple<uint32_t, uint32_t, std::string, std::string>> order;
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const auto& use : target.facts->feature_uses) {
      const Feature* feature = input.features->find(use.feature_id);
      if (!feature || feature->available_on(target.arch)) continue;
      auto key = std::make_tuple(use.location.range.start.line, use.location.range.start.column,
                                 use.location.file, use.feature_id);
      auto [it, inserted] = by_place.try_emplace(key);
      if (inserted) {
        it->second.use = &use;
        it->second.feature = feature;
        order.push_back(key);
      }
      if (std::find(it->second.lacking.begin(), it->second.lacking.end(), target.arch) == it->second.lacking.end())
        it->second.lacking.push_back(target.arch);
    }
  }
  for (const auto& key : order) {
    const Mismatch& m = by_place.at(key);
    std::string what = m.feature->summary.empty() ? "" : " (" + m.feature->summary + ")";
    std::string reached = m.use->reaching_kernel.empty() ? "" : ", reached from kernel `" + m.use->reaching_kernel + "`";
    std::string message = "`" + m.use->spelling + "`" + what + " needs " + m.feature->requirement() + ", but " +
                          builds_for(input) + join_archs(m.lacking) + reached + ". Guard it with `#if " +
                          m.feature->guard + "` (and give the other archs a fallback), or " + drop_advice(input, m);
    Finding f = kArchMismatchRule.finding(m.use->location, std::move(message));
    // A guess is not a promise the code breaks: say it, do not fail a build over it.
    if (input.archs_assumed) f.severity = Severity::Warning;
    for (const auto& lacking : m.lacking) {
      for (const auto& origin : input.origins) {
        if (origin.arch == lacking && origin.location)
          f.notes.push_back({*origin.location, lacking.text() + " is listed here"});
      }
    }
    if (!m.use->reaching_kernel.empty())
      f.notes.push_back({m.use->reaching_kernel_location,
                         "kernel `" + m.use->reaching_kernel + "` reaches this code through its calls"});
    f.fixes.push_back(guard_fix(input, *m.use, *m.feature));
    for (auto& fix : capability_fixes(input, m)) f.fixes.push_back(std::move(fix));
    out.push_back(std::move(f));
  }
}

}  // namespace
}  // namespace kl::analyzers
