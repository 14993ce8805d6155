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

// The default limit of shared memory per block: all of it for static __shared__, and the most
// dynamic shared memory a launch gets without cudaFuncSetAttribute.
constexpr uint64_t kDefaultLimit = 49152;

// A kernel or a launch, taken once from the first parse that has it, with the target archs
// whose parses have it.
template <class Fact>
struct Seen {
  const Fact* fact = nullptr;
  std::vector<Capability> archs;
};

// What this rule reads from the parses of every target arch. Kernels and launches do not depend
// on the arch in practice: each is checked once, against every arch it was seen for.
struct SharedMemoryFacts {
  std::vector<Seen<KernelInfo>> kernels;          // by name and line, in the order first seen
  std::vector<Seen<LaunchSite>> launches;         // by position, in the order first seen
  std::vector<const SharedMemoryOptIn*> opt_ins;  // by location, in the order first seen
};

template <class Fact>
void add_seen(std::map<std::string, size_t>& index, std::vector<Seen<Fact>>& seen, const std::string& key,
              const Fact& fact, const Capability& arch) {
  auto [it, inserted] = index.try_emplace(key, seen.size());
  if (inserted) seen.push_back({&fact, {}});
  seen[it->second].archs.push_back(arch);
}

SharedMemoryFacts collect_shared_memory_facts(const SourceInput& input) {
  SharedMemoryFacts facts;
  std::map<std::string, size_t> kernel_index, launch_index;
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const auto& kernel : target.facts->kernels) {
      auto key = kernel.name + "@" + std::to_string(kernel.location.range.start.line);
      add_seen(kernel_index, facts.kernels, key, kernel, target.arch);
    }
    for (const auto& launch : target.facts->launches) {
      const Position& start = launch.location.range.start;
      add_seen(launch_index, facts.launches, std::to_string(start.line) + ":" + std::to_string(start.column),
               launch, target.arch);
    }
    for (const auto& opt_in : target.facts->shared_opt_ins) {
      bool seen = std::any_of(facts.opt_ins.begin(), facts.opt_ins.end(),
                              [&](const SharedMemoryOptIn* o) { return o->location == opt_in.location; });
      if (!seen) facts.opt_ins.push_back(&opt_in);
    }
  }
  return facts;
}

// The most static shared memory any kernel of each name declares: what a launch of that name
// adds to its dynamic size.
std::map<std::string, uint64_t> static_bytes_per_kernel_name(const std::vector<Seen<KernelInfo>>& kernels) {
  std::map<std::string, uint64_t> bytes;
  for (const auto& kernel : kernels)
    bytes[kernel.fact->name] = std::max(bytes[kernel.fact->name], kernel.fact->static_shared_bytes);
  return bytes;
}

std::string comma_list(const std::vector<std::string>& items) {
  std::string list;
  for (size_t i = 0; i < items.size(); ++i) list += (i ? ", " : "") + items[i];
  return list;
}

// Static __shared__ over the per-block limit: nvcc rejects the kernel on every arch.
void check_static_shared(const Seen<KernelInfo>& seen, const SourceInput& input, std::vector<Finding>& out) {
  const KernelInfo& kernel = *seen.fact;
  const ArchLimits* limits = input.archs->find(seen.archs.front());
  uint64_t limit = limits ? limits->static_smem_per_block : kDefaultLimit;
  if (kernel.static_shared_bytes <= limit) return;
  Finding f =
      make(kernel.location,
           "kernel `" + kernel.name + "` declares " + kib(kernel.static_shared_bytes) +
               " of static shared memory; the limit is " + kib(limit) +
               " per block on every architecture, and nvcc rejects the kernel. Move the "
               "largest arrays to dynamic shared memory (`extern __shared__`) and raise the "
               "limit with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, bytes).");
  for (const auto& v : kernel.shared_variables)
    if (v.bytes > 0) f.notes.push_back({v.location, "`" + v.name + "`: " + kib(v.bytes)});
  out.push_back(std::move(f));
}

// A launch asking for `total` bytes (dynamic plus the kernel's static) over the opt-in maximum of
// archs it is built for: it fails on those GPUs. Notes the places in build.toml that list them.
// Returns whether it reported.
bool check_launch_against_archs(const Seen<LaunchSite>& seen, uint64_t total, const SourceInput& input,
                                std::vector<Finding>& out) {
  const LaunchSite& launch = *seen.fact;
  auto over_limit = [&](const Capability& arch) -> const ArchLimits* {
    const ArchLimits* limits = input.archs->find(arch);
    return limits && total > limits->max_dynamic_smem_per_block ? limits : nullptr;
  };
  std::vector<std::string> over;
  for (const auto& arch : seen.archs)
    if (const ArchLimits* limits = over_limit(arch))
      over.push_back(arch.text() + " (" + std::to_string(limits->max_dynamic_smem_per_block) + " bytes)");
  if (over.empty()) return false;
  Finding f = make({launch.location.file, launch.dynamic_shared_range},
                   "launch of `" + launch.kernel_name + "` asks for " + kib(total) +
                       " of shared memory per block, more than " + comma_list(over) +
                       " allows; the launch fails on those GPUs. Use a smaller tile there "
                       "(choose the size at run time from cudaDevAttrMaxSharedMemoryPerBlockOptin) "
                       "or drop those archs from build.toml.");
  for (const auto& origin : input.origins) {
    bool targeted = std::find(seen.archs.begin(), seen.archs.end(), origin.arch) != seen.archs.end();
    if (targeted && origin.location && over_limit(origin.arch))
      f.notes.push_back({*origin.location, origin.arch.text() + " is listed here"});
  }
  out.push_back(std::move(f));
  return true;
}

// Dynamic shared memory over the 48 KB default with no cudaFuncSetAttribute for that kernel in
// the file (for at least that size): the launch fails with "invalid argument" on every GPU.
void check_launch_opt_in(const LaunchSite& launch, uint64_t dynamic,
                         const std::vector<const SharedMemoryOptIn*>& opt_ins, std::vector<Finding>& out) {
  if (dynamic <= kDefaultLimit) return;
  bool opted_in = std::any_of(opt_ins.begin(), opt_ins.end(), [&](const SharedMemoryOptIn* o) {
    return o->kernel_name == launch.kernel_name && (!o->bytes || *o->bytes >= dynamic);
  });
  if (opted_in) return;
  out.push_back(make({launch.location.file, launch.dynamic_shared_range},
                     "launch of `" + launch.kernel_name + "` asks for " + kib(dynamic) +
                         " of dynamic shared memory, over the 48 KB default, and this file never calls "
                         "cudaFuncSetAttribute(" +
                         launch.kernel_name + ", cudaFuncAttributeMaxDynamicSharedMemorySize, " +
                         std::to_string(dynamic) +
                         "); without it the launch fails with \"invalid argument\"."));
}

// A cudaFuncSetAttribute asking for more than a listed arch allows: the call fails there.
void check_opt_in(const SharedMemoryOptIn& opt_in, const SourceInput& input, std::vector<Finding>& out) {
  if (!opt_in.bytes) return;
  std::vector<std::string> over;
  for (const auto& origin : input.origins) {
    const ArchLimits* limits = input.archs->find(origin.arch);
    if (limits && *opt_in.bytes > limits->max_dynamic_smem_per_block)
      over.push_back(origin.arch.text() + " (" + std::to_string(limits->max_dynamic_smem_per_block) +
                     " bytes)");
  }
  if (over.empty()) return;
  out.push_back(
      make(opt_in.location, "cudaFuncSetAttribute asks for " + kib(*opt_in.bytes) +
                                " of dynamic shared memory, more than " + comma_list(over) +
                                " allows; the call fails there. Query "
                                "cudaDevAttrMaxSharedMemoryPerBlockOptin and size the tile from it."));
}

// Kernels first, then launches (each against its archs, else against the 48 KB default), then
// opt-ins, each group in the order first seen.
void check_smem_limit(const SourceInput& input, std::vector<Finding>& out) {
  if (input.targets.empty()) return;
  SharedMemoryFacts facts = collect_shared_memory_facts(input);
  for (const auto& kernel : facts.kernels) check_static_shared(kernel, input, out);
  std::map<std::string, uint64_t> static_bytes = static_bytes_per_kernel_name(facts.kernels);
  for (const auto& launch : facts.launches) {
    if (!launch.fact->dynamic_shared_bytes) continue;
    uint64_t dynamic = *launch.fact->dynamic_shared_bytes;
    uint64_t total = dynamic + static_bytes[launch.fact->kernel_name];
    if (!check_launch_against_archs(launch, total, input, out))
      check_launch_opt_in(*launch.fact, dynamic, facts.opt_ins, out);
  }
  for (const SharedMemoryOptIn* opt_in : facts.opt_ins) check_opt_in(*opt_in, input, out);
}

}  // namespace
}  // namespace kl::analyzers
