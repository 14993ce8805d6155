// arch-unsupported: a capability in build.toml that is not a CUDA architecture at all ("9.5"),
// or one the installed toolkit cannot target (CUDA 13 dropped 5.x-7.2). Located on the string
// in build.toml; reads the build.toml model, the arch table and the toolkit, nothing else.
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
    .summary = "build.toml lists a capability that is unknown or that the installed CUDA toolkit cannot target",
    .guidance_page = "references/rules/arch-unsupported.md",
    .build_toml_check = &check_arch_unsupported,
};

namespace {

// Arch-specific ('a') targets exist from 9.0 on, family ('f') targets from 10.0 on.
bool variant_exists(const Capability& capability) {
  if (capability.variant == ArchVariant::Specific) return capability.number() >= 90;
  if (capability.variant == ArchVariant::Family) return capability.number() >= 100;
  return true;
}

std::string nearest_known(const Capability& wanted, const ArchTable& archs) {
  const ArchLimits* best = nullptr;
  int best_distance = 1 << 30;
  for (const auto& arch : archs.all()) {
    int distance = std::abs(arch.capability.number() - wanted.number());
    if (distance < best_distance) {
      best_distance = distance;
      best = &arch;
    }
  }
  return best ? best->capability.text() : std::string();
}

Finding make(const CapabilityEntry& entry, const BuildConfig& config, std::string message) {
  return kArchUnsupportedRule.finding({config.file.string(), entry.range}, std::move(message));
}

void check_arch_unsupported(const BuildTomlInput& input, std::vector<Finding>& out) {
  if (!input.parse->config) return;
  const BuildConfig& config = *input.parse->config;
  const ArchTable& archs = *input.archs;
  const CudaToolkit* toolkit = input.toolkit;
  for (const auto& kernel : config.kernels) {
    if (!kernel.cuda_capabilities) continue;
    size_t usable = 0;
    for (const auto& entry : *kernel.cuda_capabilities) {
      if (!entry.capability) {
        out.push_back(make(entry, config, "`" + entry.text + "` is not a compute capability; write \"<major>.<minor>\" "
                                          "with an optional `a` (arch-specific) or `f` (family) suffix and "
                                          "`+PTX`, e.g. \"9.0\", \"9.0a\", \"10.0f\"."));
        continue;
      }
      const Capability& cap = *entry.capability;
      if (!archs.find(cap)) {
        Finding f = make(entry, config, "unknown compute capability " + cap.text() + ": no GPU has it. Did you mean " +
                                            nearest_known(cap, archs) + "?");
        Capability replacement = *parse_capability(nearest_known(cap, archs));
        f.fixes.push_back({"Replace with " + replacement.text(),
                           {{config.file.string(), entry.range, "\"" + replacement.text() + "\""}}});
        out.push_back(std::move(f));
        continue;
      }
      if (!variant_exists(cap)) {
        Capability plain = cap;
        plain.variant = ArchVariant::Plain;
        Finding f = make(entry, config, "\"" + cap.text() + "\" does not exist: arch-specific ('a') targets start at 9.0 "
                                        "and family ('f') targets at 10.0. Use \"" + plain.text() + "\".");
        f.fixes.push_back({"Replace with " + plain.text(), {{config.file.string(), entry.range, "\"" + plain.text() + "\""}}});
        out.push_back(std::move(f));
        continue;
      }
      if (toolkit && !toolkit->can_target(cap)) {
        std::string message = "the installed CUDA " + toolkit->version_text() + " (" + toolkit->root.string() +
                              ") cannot target " + cap.text() + " (nvcc: Unsupported gpu architecture '" +
                              cap.compute_name() + "')";
        if (toolkit->version_major >= 13 && cap.number() < 75)
          message += "; CUDA 13 dropped support for compute capabilities below 7.5";
        message += ". The builder skips it, so this kernel is never built for it: remove it, or build with an older toolkit.";
        out.push_back(make(entry, config, message));
        continue;
      }
      ++usable;
    }
    if (usable == 0 && !kernel.cuda_capabilities->empty() && toolkit) {
      out.push_back(kArchUnsupportedRule.finding(
          {config.file.string(), kernel.cuda_capabilities_range},
          "no capability of [kernel." + kernel.name + "] can be built with CUDA " + toolkit->version_text() +
              ": the builder stops with \"empty set of capabilities after intersection\"."));
    }
  }
}

}  // namespace

bool capability_is_usable(const Capability& capability, const ArchTable& archs, const CudaToolkit* toolkit) {
  if (!archs.find(capability) || !variant_exists(capability)) return false;
  return !toolkit || toolkit->can_target(capability);
}

}  // namespace kl::analyzers
