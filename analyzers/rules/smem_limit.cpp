// smem-limit: shared memory per block over what an architecture in build.toml allows.
//  - static __shared__ over 48 KB: nvcc refuses the kernel ("uses too much shared data");
//  - a constant dynamic size at a launch over an arch's opt-in maximum: the launch fails there;
//  - dynamic over 48 KB with no cudaFuncSetAttribute(MaxDynamicSharedMemorySize) for that
//    kernel in the file: the launch fails with "invalid argument" on every GPU.
#include <algorithm>
#include <map>

#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {
namespace {
void check_smem_limit(const SourceInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kSmemLimitRule;  // listed in rule_catalog.cpp
const Rule kSmemLimitRule = {
    .id = "smem-limit",
    .default_severity = Severity::Error,
    .summary = "shared memory per block over the limit of an architecture in build.toml",
    .guidance_page = "references/rules/smem-limit.md",
    .source_check = &check_smem_limit,
};

namespace {

std::string kib(uint64_t bytes) {
  uint64_t whole = bytes / 1024;
  uint64_t tenth = (bytes % 1024) * 10 / 1024;
  return std::to_string(bytes) + " bytes (" + std::to_string(whole) + (tenth ? "." + std::to_string(tenth) : "") + " KB)";
}

Finding make(const Location& location, std::string message) {
  return kSmemLimitRule.finding(location, std::move(message));
}

void check_smem_limit(const SourceInput& input, std::vector<Finding>& out) {
  if (input.targets.empty()) return;
  // Kernels and launches do not depend on the arch in practice; take each kernel once, from the
  // first parse that has it, and check it against every target arch's limits.
  std::map<std::string, std::pair<const KernelInfo*, std::vector<Capability>>> kernels;
  std::vector<std::string> kernel_order;
  std::map<std::string, std::pair<const LaunchSite*, std::vector<Capability>>> launches;
  std::vector<std::string> launch_order;
  std::vector<const SharedMemoryOptIn*> opt_ins;
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const auto& kernel : target.facts->kernels) {
      auto key = kernel.name + "@" + std::to_string(kernel.location.range.start.line);
      auto [it, inserted] = kernels.try_emplace(key, &kernel, std::vector<Capability>{});
      if (inserted) kernel_order.push_back(key);
      it->second.second.push_back(target.arch);
    }
    for (const auto& launch : target.facts->launches) {
      auto key = std::to_string(launch.location.range.start.line) + ":" + std::to_string(launch.location.range.start.column);
      auto [it, inserted] = launches.try_emplace(key, &launch, std::vector<Capability>{});
      if (inserted) launch_order.push_back(key);
      it->second.second.push_back(target.arch);
    }
    for (const auto& opt_in : target.facts->shared_opt_ins) {
      bool seen = std::any_of(opt_ins.begin(), opt_ins.end(), [&](const SharedMemoryOptIn* o) {
        return o->location == opt_in.location;
      });
      if (!seen) opt_ins.push_back(&opt_in);
    }
  }

  std::map<std::string, uint64_t> static_bytes;
  for (const auto& key : kernel_order) {
    const auto& [kernel, archs] = kernels.at(key);
    static_bytes[kernel->name] = std::max(static_bytes[kernel->name], kernel->static_shared_bytes);
    const ArchLimits* limits = input.archs->find(archs.front());
    uint64_t limit = limits ? limits->static_smem_per_block : 49152;
    if (kernel->static_shared_bytes <= limit) continue;
    Finding f = make(kernel->location,
                     "kernel `" + kernel->name + "` declares " + kib(kernel->static_shared_bytes) +
                         " of static shared memory; the limit is " + kib(limit) +
                         " per block on every architecture, and nvcc rejects the kernel. Move the "
                         "largest arrays to dynamic shared memory (`extern __shared__`) and raise the "
                         "limit with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, bytes).");
    for (const auto& v : kernel->shared_variables)
      if (v.bytes > 0) f.notes.push_back({v.location, "`" + v.name + "`: " + kib(v.bytes)});
    out.push_back(std::move(f));
  }

  for (const auto& key : launch_order) {
    const auto& [launch, archs] = launches.at(key);
    if (!launch->dynamic_shared_bytes) continue;
    uint64_t dynamic = *launch->dynamic_shared_bytes;
    uint64_t total = dynamic + static_bytes[launch->kernel_name];
    Location where{launch->location.file, launch->dynamic_shared_range};
    std::vector<std::string> over;
    uint64_t smallest_limit = UINT64_MAX;
    for (const auto& arch : archs) {
      const ArchLimits* limits = input.archs->find(arch);
      if (!limits || total <= limits->max_dynamic_smem_per_block) continue;
      over.push_back(arch.text() + " (" + std::to_string(limits->max_dynamic_smem_per_block) + " bytes)");
      smallest_limit = std::min(smallest_limit, limits->max_dynamic_smem_per_block);
    }
    if (!over.empty()) {
      std::string list;
      for (size_t i = 0; i < over.size(); ++i) list += (i ? ", " : "") + over[i];
      Finding f = make(where, "launch of `" + launch->kernel_name + "` asks for " + kib(total) +
                                  " of shared memory per block, more than " + list +
                                  " allows; the launch fails on those GPUs. Use a smaller tile there "
                                  "(choose the size at run time from cudaDevAttrMaxSharedMemoryPerBlockOptin) "
                                  "or drop those archs from build.toml.");
      for (const auto& origin : input.origins) {
        bool targeted = std::any_of(archs.begin(), archs.end(), [&](const Capability& c) { return c == origin.arch; });
        const ArchLimits* limits = input.archs->find(origin.arch);
        if (targeted && origin.location && limits && total > limits->max_dynamic_smem_per_block)
          f.notes.push_back({*origin.location, origin.arch.text() + " is listed here"});
      }
      out.push_back(std::move(f));
      continue;
    }
    if (dynamic <= 49152) continue;
    bool opted_in = std::any_of(opt_ins.begin(), opt_ins.end(), [&](const SharedMemoryOptIn* o) {
      return o->kernel_name == launch->kernel_name && (!o->bytes || *o->bytes >= dynamic);
    });
    if (opted_in) continue;
    out.push_back(make(where, "launch of `" + launch->kernel_name + "` asks for " + kib(dynamic) +
                                  " of dynamic shared memory, over the 48 KB default, and this file never calls "
                                  "cudaFuncSetAttribute(" + launch->kernel_name +
                                  ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + std::to_string(dynamic) +
                                  "); without it the launch fails with \"invalid argument\"."));
  }

  for (const SharedMemoryOptIn* opt_in : opt_ins) {
    if (!opt_in->bytes) continue;
    std::vector<std::string> over;
    for (const auto& origin : input.origins) {
      const ArchLimits* limits = input.archs->find(origin.arch);
      if (limits && *opt_in->bytes > limits->max_dynamic_smem_per_block)
        over.push_back(origin.arch.text() + " (" + std::to_string(limits->max_dynamic_smem_per_block) + " bytes)");
    }
    if (over.empty()) continue;
    std::string list;
    for (size_t i = 0; i < over.size(); ++i) list += (i ? ", " : "") + over[i];
    out.push_back(make(opt_in->location, "cudaFuncSetAttribute asks for " + kib(*opt_in->bytes) +
                                             " of dynamic shared memory, more than " + list +
                                             " allows; the call fails there. Query "
                                             "cudaDevAttrMaxSharedMemoryPerBlockOptin and size the tile from it."));
  }
}

}  // namespace
}  // namespace kl::analyzers
