// arch-unsupported: a capability in build.toml that is not a CUDA architecture at all ("9.5"),
// or one the installed toolkit cannot target (CUDA 13 dropped 5.x-7.2 and calls 10.1 11.0).
// Located on the string in build.toml; reads the build.toml model, the arch table and the
// toolkit, nothing else. What it says about which toolkits target what comes from the arch
// table's history (archs.toml), never from here.
#include "analyzers/rules/arch_unsupported.h"

#include <algorithm>
#include <cmath>

#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {
namespace {
void check_arch_unsupported(const BuildTomlInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kArchUnsupportedRule;  // listed in rule_catalog.cpp
const Rule kArchUnsupportedRule = {
    .id = "arch-unsupported",
    .default_severity = Severity::Error,
    .summary =
        "build.toml lists a capability that is unknown or that the installed CUDA toolkit cannot target",
    .guidance_page = "references/rules/arch-unsupported.md",
    .build_toml_check = &check_arch_unsupported,
};

namespace {

bool variant_exists(const Capability& capability, const ArchLimits& arch) {
  return arch.has_variant(capability.variant);
}

// The closest capability a toolkit still calls by that name (a renamed one has a better name).
std::string nearest_known(const Capability& wanted, const ArchTable& archs) {
  const ArchLimits* best = nullptr;
  int best_distance = 1 << 30;
  for (const auto& arch : archs.all()) {
    if (arch.history.renamed_to) continue;
    int distance = std::abs(arch.capability.number() - wanted.number());
    if (distance < best_distance) {
      best_distance = distance;
      best = &arch;
    }
  }
  return best ? best->capability.text() : std::string();
}

// "CUDA 12.8–12.9", "CUDA 12.9 and older": the toolkits that target a retired capability.
std::string targeted_by(const ArchLimits& arch, ArchVariant variant) {
  const std::string last = cuda_version_text(*arch.history.last_cuda);
  if (auto first = arch.first_cuda(variant))
    return "CUDA " + (*first == *arch.history.last_cuda ? last : cuda_version_text(*first) + "–" + last);
  return "CUDA " + last + " and older";
}

// Why `toolkit` cannot target `cap`, from the arch table's history, and what to do instead.
std::string history_advice(const Capability& cap, const ArchLimits& arch, const ArchTable& archs,
                           const CudaToolkit& toolkit) {
  const MajorMinor installed{toolkit.version_major, toolkit.version_minor};
  const CudaHistory& history = arch.history;
  if (history.last_cuda && installed > *history.last_cuda) {
    std::string text = "; " + cap.text() + " was targeted by " + targeted_by(arch, cap.variant);
    if (!history.renamed_to)
      return text +
             ". The builder skips it, so this kernel is never built for it: remove it, or build with an "
             "older toolkit.";
    Capability renamed = *history.renamed_to;
    renamed.variant = cap.variant;
    renamed.ptx = cap.ptx;
    const ArchLimits* successor = archs.find(renamed);
    auto since = successor ? successor->first_cuda(cap.variant) : std::nullopt;
    const std::string from = since ? "CUDA " + cuda_version_text(*since) : "later toolkits";
    return text + "; " + from + " calls it " + renamed.text() +
           ". The builder skips it with this toolkit: list " + renamed.text() + " for " + from +
           " and newer (and keep " + cap.text() + " for " + targeted_by(arch, cap.variant) + ").";
  }
  if (auto first = arch.first_cuda(cap.variant); first && installed < *first) {
    std::string text = "; CUDA " + cuda_version_text(*first) + " and newer target it";
    if (const ArchLimits* earlier = archs.renamed_from(cap)) {
      Capability old_name = earlier->capability;
      old_name.variant = cap.variant;
      text += " (" + targeted_by(*earlier, cap.variant) + " call it " + old_name.text() + ")";
    }
    return text +
           ". The builder skips it, so this kernel is never built for it: remove it, or build with a newer "
           "toolkit.";
  }
  return ". The builder skips it, so this kernel is never built for it: remove it, or build with another "
         "toolkit.";
}

// "\"8.0a\" does not exist: arch-specific ('a') targets start at 9.0 and family ('f') targets at 10.0."
std::string variant_message(const Capability& cap, const ArchTable& archs) {
  std::string message = "\"" + cap.text() + "\" does not exist:";
  const ArchLimits* specific = archs.first_with_variant(ArchVariant::Specific);
  const ArchLimits* family = archs.first_with_variant(ArchVariant::Family);
  if (specific) message += " arch-specific ('a') targets start at " + specific->capability.text();
  if (specific && family) message += " and";
  if (family) message += " family ('f') targets at " + family->capability.text();
  if (!specific && !family) message += " no capability has arch-specific or family variants";
  Capability plain = cap;
  plain.variant = ArchVariant::Plain;
  return message + ". Use \"" + plain.text() + "\".";
}

Finding make(const CapabilityEntry& entry, const BuildConfig& config, std::string message) {
  return kArchUnsupportedRule.finding({config.file.string(), entry.range}, std::move(message));
}

Finding replacement_finding(const CapabilityEntry& entry, const BuildConfig& config, std::string message,
                            const Capability& replacement) {
  Finding f = make(entry, config, std::move(message));
  f.fixes.push_back({"Replace with " + replacement.text(),
                     {{config.file.string(), entry.range, "\"" + replacement.text() + "\""}}});
  return f;
}

// One entry of `cuda-capabilities`: a finding, or nothing when it can be built.
std::optional<Finding> check_entry(const CapabilityEntry& entry, const BuildConfig& config,
                                   const ArchTable& archs, const CudaToolkit* toolkit) {
  if (!entry.capability)
    return make(entry, config,
                "`" + entry.text +
                    "` is not a compute capability; write \"<major>.<minor>\" "
                    "with an optional `a` (arch-specific) or `f` (family) suffix and "
                    "`+PTX`, e.g. \"9.0\", \"9.0a\", \"10.0f\".");
  const Capability& cap = *entry.capability;
  const ArchLimits* arch = archs.find(cap);
  if (!arch) {
    const std::string nearest = nearest_known(cap, archs);
    return replacement_finding(
        entry, config,
        "unknown compute capability " + cap.text() + ": no GPU has it. Did you mean " + nearest + "?",
        *parse_capability(nearest));
  }
  if (!variant_exists(cap, *arch)) {
    Capability plain = cap;
    plain.variant = ArchVariant::Plain;
    return replacement_finding(entry, config, variant_message(cap, archs), plain);
  }
  if (toolkit && !toolkit->can_target(cap))
    return make(entry, config,
                "the installed CUDA " + toolkit->version_text() + " (" + toolkit->root.string() +
                    ") cannot target " + cap.text() + " (nvcc: Unsupported gpu architecture '" +
                    cap.compute_name() + "')" + history_advice(cap, *arch, archs, *toolkit));
  return std::nullopt;
}

void check_arch_unsupported(const BuildTomlInput& input, std::vector<Finding>& out) {
  if (!input.parse->config) return;
  const BuildConfig& config = *input.parse->config;
  for (const auto& kernel : config.kernels) {
    if (!kernel.cuda_capabilities) continue;
    size_t usable = 0;
    for (const auto& entry : *kernel.cuda_capabilities) {
      if (auto finding = check_entry(entry, config, *input.archs, input.toolkit))
        out.push_back(std::move(*finding));
      else
        ++usable;
    }
    if (usable == 0 && !kernel.cuda_capabilities->empty() && input.toolkit) {
      out.push_back(kArchUnsupportedRule.finding(
          {config.file.string(), kernel.cuda_capabilities_range},
          "no capability of [kernel." + kernel.name + "] can be built with CUDA " +
              input.toolkit->version_text() +
              ": the builder stops with \"empty set of capabilities after intersection\"."));
    }
  }
}

}  // namespace

bool capability_is_usable(const Capability& capability, const ArchTable& archs, const CudaToolkit* toolkit) {
  const ArchLimits* arch = archs.find(capability);
  if (!arch || !variant_exists(capability, *arch)) return false;
  return !toolkit || toolkit->can_target(capability);
}

}  // namespace kl::analyzers
