#include "analyzers/rules/arch_unsupported.h"

#include <algorithm>
#include <cmath>

#include "analyzers/rules/rule_catalog.h"

namespace kl::analyzers {
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
  Finding f;
  f.rule_id = std::string(kArchUnsupported);
  f.severity = Severity::Error;
  f.location = {config.file.string(), entry.range};
  f.message = std::move(message);
  f.help_uri = rule_help_uri(kArchUnsupported);
  return f;
}

}  // namespace

bool capability_is_usable(const Capability& capability, const ArchTable& archs, const CudaToolkit* toolkit) {
  if (!archs.find(capability) || !variant_exists(capability)) return false;
  return !toolkit || toolkit->can_target(capability);
}

void check_arch_unsupported(const BuildConfig& config, const ArchTable& archs, const CudaToolkit* toolkit,
                            std::vector<Finding>& out) {
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
      Finding f;
      f.rule_id = std::string(kArchUnsupported);
      f.severity = Severity::Error;
      f.location = {config.file.string(), kernel.cuda_capabilities_range};
      f.message = "no capability of [kernel." + kernel.name + "] can be built with CUDA " + toolkit->version_text() +
                  ": the builder stops with \"empty set of capabilities after intersection\".";
      f.help_uri = rule_help_uri(kArchUnsupported);
      out.push_back(std::move(f));
    }
  }
}

}  // namespace kl::analyzers
