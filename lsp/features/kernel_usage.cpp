#include "lsp/features/kernel_usage.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "analyzers/data/arch_table.h"
#include "lsp/features/document_symbols.h"
#include "runner/occupancy.h"
#include "runner/resource_usage.h"

namespace kl::lsp {
namespace {

// The block sizes the file shows for `kernel`: its launch bounds, else its constant launches.
struct BlockSize {
  std::optional<uint32_t> threads;
  std::optional<uint32_t> max_threads;  // launch bounds: the most a launch may use
  uint64_t dynamic_shared = 0;          // the largest constant dynamic smem of its launches
  std::string source;
};

BlockSize block_size_of(const std::string& kernel, const analyzers::UnitFacts* facts) {
  BlockSize out;
  if (!facts) return out;
  for (const auto& info : facts->kernels)
    if (info.name == kernel && info.max_threads_per_block) {
      out.max_threads = info.max_threads_per_block;
      out.threads = info.max_threads_per_block;
      out.source = "launch bounds";
    }
  std::set<uint32_t> launched;
  bool all_constant = true;
  for (const auto& launch : facts->launches) {
    if (runner::kernel_base_name(launch.kernel_name) != kernel) continue;
    if (launch.dynamic_shared_bytes)
      out.dynamic_shared = std::max(out.dynamic_shared, *launch.dynamic_shared_bytes);
    if (launch.block_x)
      launched.insert(*launch.block_x * launch.block_y.value_or(1) * launch.block_z.value_or(1));
    else
      all_constant = false;
  }
  // Launches say what runs; a single constant block size replaces the bound (which is a maximum).
  if (launched.size() == 1 && all_constant) {
    out.threads = *launched.begin();
    out.source = "launches in this file";
  }
  return out;
}

void add_occupancy(TargetUsage& usage, const std::string& capability, const BlockSize& block,
                   uint32_t registers, uint64_t shared) {
  auto cap = analyzers::parse_capability(capability);
  const analyzers::ArchLimits* arch = cap ? analyzers::ArchTable::builtin().find(*cap) : nullptr;
  if (!arch) return;
  uint64_t smem = shared + block.dynamic_shared;
  std::optional<double> fraction;
  uint32_t threads = 0;
  std::string source, limited_by;
  if (block.threads) {
    if (auto occ = runner::compute_occupancy(*arch, {registers, smem, *block.threads})) {
      fraction = occ->fraction;
      limited_by = occ->limited_by;
    }
    threads = *block.threads;
    source = block.source;
  } else if (auto best = runner::best_block_size(*arch, registers, smem, block.max_threads)) {
    fraction = best->occupancy.fraction;
    limited_by = best->occupancy.limited_by;
    threads = best->threads;
    source = "best block size";
  }
  if (!fraction) {  // this instantiation cannot run a block of that size at all
    if (threads) usage.unrunnable_threads = threads;
    return;
  }
  // The worst instantiation decides what the lens promises.
  if (!usage.occupancy || *fraction < *usage.occupancy) {
    usage.occupancy = fraction;
    usage.threads = threads;
    usage.threads_source = source;
    usage.limited_by = limited_by;
  }
}

std::string bytes_text(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  char text[32];
  double kb = static_cast<double>(bytes) / 1024.0;
  if (kb == static_cast<double>(static_cast<uint64_t>(kb)))
    std::snprintf(text, sizeof text, "%llu KiB", static_cast<unsigned long long>(kb));
  else
    std::snprintf(text, sizeof text, "%.1f KiB", kb);
  return text;
}

std::string percent_text(double fraction) {
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.0f", 100.0 * fraction);
  return pct;
}

// "40" or "40–64".
std::string span_text(const std::string& low, const std::string& high) {
  return low == high ? low : low + "–" + high;
}

}  // namespace

std::vector<KernelUsage> kernel_usage(std::string_view text, const analyzers::UnitFacts* facts,
                                      const runner::BuildReport& build) {
  std::vector<KernelUsage> out;
  for (const auto& symbol : document_symbols(text, facts)) {
    if (symbol.kind != SymbolKind::Kernel) continue;
    KernelUsage usage{symbol.name, symbol.selection, {}};
    BlockSize block = block_size_of(symbol.name, facts);
    std::map<std::string, size_t> by_target;  // target → index in usage.targets
    for (const auto& unit : build.units) {
      if (!unit.ok) continue;
      for (const auto& resources : unit.kernels) {
        if (runner::kernel_base_name(resources.name) != symbol.name) continue;
        std::string target =
            resources.target.empty() ? runner::target_name(unit.capability) : resources.target;
        auto [it, fresh] = by_target.emplace(target, usage.targets.size());
        if (fresh) usage.targets.push_back(TargetUsage{target});
        TargetUsage& t = usage.targets[it->second];
        // The same kernel compiled from two sources of one section is one instantiation.
        ++t.instantiations;
        t.registers_min =
            t.instantiations == 1 ? resources.registers : std::min(t.registers_min, resources.registers);
        t.registers_max = std::max(t.registers_max, resources.registers);
        t.spill_bytes_max =
            std::max(t.spill_bytes_max, resources.spill_store_bytes + resources.spill_load_bytes);
        t.shared_bytes_max = std::max(t.shared_bytes_max, resources.shared_bytes);
        t.stack_bytes_max = std::max(t.stack_bytes_max, resources.stack_frame_bytes);
        add_occupancy(t, unit.capability, block, resources.registers, resources.shared_bytes);
      }
    }
    out.push_back(std::move(usage));
  }
  return out;
}

std::string usage_title(const TargetUsage& u) {
  std::string regs = u.registers_min == u.registers_max
                         ? std::to_string(u.registers_max)
                         : std::to_string(u.registers_min) + "–" + std::to_string(u.registers_max);
  std::string title = u.target;
  if (u.instantiations > 1) title += " (" + std::to_string(u.instantiations) + " instantiations)";
  title += ": " + regs + " regs · " + bytes_text(u.spill_bytes_max) + " spill · " +
           bytes_text(u.shared_bytes_max) + " smem";
  if (u.occupancy) {
    title += " · " + std::string(u.instantiations > 1 ? "≥ " : "") + percent_text(*u.occupancy) + "% occupancy";
    title += u.threads_source == "best block size" ? " up to " + std::to_string(u.threads) + " threads"
                                                   : " at " + std::to_string(u.threads) + " threads";
  }
  if (u.unrunnable_threads)
    title += " · cannot launch " + std::to_string(u.unrunnable_threads) + " threads per block";
  return title;
}

std::string usage_summary(const std::vector<TargetUsage>& targets) {
  if (targets.empty()) return {};
  uint32_t regs_min = targets.front().registers_min, regs_max = 0, spill = 0, smem = 0, unrunnable = 0;
  std::optional<double> occ_min, occ_max;
  for (const auto& t : targets) {
    regs_min = std::min(regs_min, t.registers_min);
    regs_max = std::max(regs_max, t.registers_max);
    spill = std::max(spill, t.spill_bytes_max);
    smem = std::max(smem, t.shared_bytes_max);
    unrunnable = std::max(unrunnable, t.unrunnable_threads);
    if (t.occupancy) {
      occ_min = occ_min ? std::min(*occ_min, *t.occupancy) : *t.occupancy;
      occ_max = occ_max ? std::max(*occ_max, *t.occupancy) : *t.occupancy;
    }
  }
  std::string title = span_text(std::to_string(regs_min), std::to_string(regs_max)) + " regs";
  // Spills are worth the room only when there are some: then they are what to look at first.
  if (spill) title += " · " + bytes_text(spill) + " spill";
  title += " · " + bytes_text(smem) + " smem";
  if (unrunnable)
    title += " · cannot launch " + std::to_string(unrunnable) + " threads";
  else if (occ_min)
    title += " · " + span_text(percent_text(*occ_min), percent_text(*occ_max)) + "% occupancy";
  return title;
}

std::string usage_details(const std::string& kernel, const std::vector<TargetUsage>& targets) {
  std::string details = kernel + ", per target:";
  for (const auto& t : targets) details += "\n" + usage_title(t);
  return details;
}

}  // namespace kl::lsp
