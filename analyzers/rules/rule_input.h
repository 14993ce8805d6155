#pragma once
// What a rule reads. Plain data; rules never see clang or LSP.
//  - SourceInput: the facts of each target arch's parse of one file, the project's capability
//    list with its places in build.toml, and the data tables.
//  - BuildTomlInput: one build.toml as the project reader understood it (its problems, and the
//    model when there is one), the arch table and the toolkit.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/data/arch_table.h"
#include "analyzers/data/feature_table.h"
#include "analyzers/finding.h"
#include "analyzers/frontend/cuda_toolkit.h"
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

struct SourceInput {
  std::string file;
  std::string_view text;                    // the source, for fixes that insert lines
  std::vector<ArchFacts> targets;           // archs the file is built for, in build.toml order
  std::vector<ArchOrigin> origins;          // same archs, with where they were listed
  std::string arch_origin;                  // "build.toml", "--arch", "default list for CUDA 13.0"
  std::optional<Location> capability_list;  // the cuda-capabilities array, when there is one
  bool archs_assumed = false;               // nothing declares the archs: `targets` is a guess
  const ArchTable* archs = nullptr;
  const FeatureTable* features = nullptr;
};

struct BuildTomlInput {
  const BuildConfigParse* parse = nullptr;  // never null; parse->config is empty when unreadable
  const ArchTable* archs = nullptr;
  const CudaToolkit* toolkit = nullptr;  // null when none was found, or when there is no config
};

}  // namespace kl::analyzers
