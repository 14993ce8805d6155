#pragma once
// What the newest build says about each kernel: ptxas' registers, spills and shared
// memory per capability, joined to the kernels of a source by name, with the occupancy they
// allow (runner/occupancy.h) at the block size the code shows: __launch_bounds__, else the
// constant block of its launches in the file, else the largest block size that reaches the best
// occupancy. Pure; the LSP layer turns it into code lenses.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/model/unit_facts.h"
#include "runner/project_build.h"

namespace kl::lsp {

struct TargetUsage {
  std::string target;         // "sm_90"
  size_t instantiations = 0;  // ptxas entries of this kernel for the target (templates: several)
  uint32_t registers_min = 0, registers_max = 0;
  uint32_t spill_bytes_max = 0;   // stores + loads
  uint32_t shared_bytes_max = 0;  // static
  uint32_t stack_bytes_max = 0;
  // Occupancy of the worst instantiation; nullopt when the arch is unknown or the block cannot
  // run (too many registers or too much shared memory for one block).
  std::optional<double> occupancy;
  uint32_t threads = 0;        // the block size it was computed at
  std::string threads_source;  // "launch bounds", "launches in this file", "best block size"
  std::string limited_by;      // from the occupancy calculation
  // An instantiation whose registers or shared memory leave no room for one block of this size.
  uint32_t unrunnable_threads = 0;
};

struct KernelUsage {
  std::string name;
  analyzers::Range name_range;       // where the lens goes
  std::vector<TargetUsage> targets;  // in build order
};

// One entry per kernel defined in `text` (found as document symbols are: facts first, else the
// scan); kernels the build did not report get no targets.
std::vector<KernelUsage> kernel_usage(std::string_view text, const analyzers::UnitFacts* facts,
                                      const runner::BuildReport& build);

// One target in full, a line of the details:
// "sm_90: 40 regs · 0 B spill · 4 KiB smem · 100% occupancy at 256 threads"
std::string usage_title(const TargetUsage& usage);

// The lens title of a kernel over all its targets: the few numbers that decide, short enough
// for one lens beside Build and Benchmark whatever the number of targets ("48 regs · 4 KiB smem
// · 100% occupancy"). Registers and occupancy as ranges over the targets when they differ,
// shared memory and spills at their worst, spills only when there are any, "cannot launch N
// threads" instead of an occupancy when some instantiation cannot run its block. Empty for none.
std::string usage_summary(const std::vector<TargetUsage>& targets);

// The summary's details, one line per target (usage_title) after "<kernel>, per target:".
std::string usage_details(const std::string& kernel, const std::vector<TargetUsage>& targets);

}  // namespace kl::lsp
