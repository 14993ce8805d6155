#pragma once
// What a source rule reads: the facts of each target arch's parse of one file, the project's
// capability list with its places in build.toml, and the data tables. Plain data; rules never
// see clang or LSP.
#include <optional>
#include <string>
#include <vector>

#include "analyzers/data/arch_table.h"
#include "analyzers/data/feature_table.h"
#include "analyzers/finding.h"
#include "analyzers/model/unit_facts.h"
#include "analyzers/project/build_config.h"

namespace kl::analyzers {

// One target architecture and the facts valid for it. Several archs may share one UnitFacts
// (when the user's code does not test __CUDA_ARCH__, one parse serves all).
struct ArchFacts {
  Capability arch;
  const UnitFacts* facts = nullptr;
};

// Where a target architecture was promised: a string in build.toml's cuda-capabilities (or
// nothing, when it came from --arch or a default list).
struct ArchOrigin {
  Capability arch;
  std::optional<Location> location;
};

struct RuleInput {
  std::string file;
  std::string_view text;                    // the source, for fixes that insert lines
  std::vector<ArchFacts> targets;           // archs the file is built for, in build.toml order
  std::vector<ArchOrigin> origins;          // same archs, with where they were listed
  std::string arch_origin;                  // "build.toml", "--arch", "default list for CUDA 13.0"
  std::optional<Location> capability_list;  // the cuda-capabilities array, when there is one
  const ArchTable* archs = nullptr;
  const FeatureTable* features = nullptr;
};

using SourceRule = void (*)(const RuleInput&, std::vector<Finding>&);

struct SourceRuleEntry {
  std::string_view id;
  SourceRule check;
};

// Every rule that reads source facts, in a fixed order.
const std::vector<SourceRuleEntry>& source_rules();

// Each rule's entry point (one file each).
void check_arch_mismatch(const RuleInput& input, std::vector<Finding>& out);
void check_smem_limit(const RuleInput& input, std::vector<Finding>& out);
void check_uncoalesced_access(const RuleInput& input, std::vector<Finding>& out);
void check_misaligned_access(const RuleInput& input, std::vector<Finding>& out);

}  // namespace kl::analyzers
