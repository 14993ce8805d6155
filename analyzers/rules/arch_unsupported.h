#pragma once
// What arch-unsupported (arch_unsupported.cpp) knows that the pipeline needs too: which
// capabilities can be analysed at all. The pipeline drops the others from a file's targets,
// since the rule reports them in build.toml.
#include "analyzers/data/arch_table.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/project/capability.h"

namespace kl::analyzers {

// Whether a capability can be analysed and built: known, and targetable by the toolkit.
bool capability_is_usable(const Capability& capability, const ArchTable& archs, const CudaToolkit* toolkit);

}  // namespace kl::analyzers
