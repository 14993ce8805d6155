#pragma once
// arch-unsupported: a capability in build.toml that is not a CUDA architecture at all ("9.5"),
// or one the installed toolkit cannot target (CUDA 13 dropped 5.x-7.2). Located on the string
// in build.toml; reads the build.toml model, the arch table and the toolkit, nothing else.
#include <vector>

#include "analyzers/data/arch_table.h"
#include "analyzers/finding.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/project/build_config.h"

namespace kl::analyzers {

void check_arch_unsupported(const BuildConfig& config, const ArchTable& archs, const CudaToolkit* toolkit,
                            std::vector<Finding>& out);

// Whether a capability can be analysed and built: known, and targetable by the toolkit.
bool capability_is_usable(const Capability& capability, const ArchTable& archs, const CudaToolkit* toolkit);

}  // namespace kl::analyzers
