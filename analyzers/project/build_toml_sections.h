#pragma once
// The readers of the sections of build.toml, one file each: [general] (build_toml_general.cpp),
// the framework section (build_toml_framework.cpp) and [kernel.<name>] (build_toml_kernels.cpp).
// Each reads what it can into the model and reports every problem; none stops at the first.
#include <toml++/toml.h>

#include <vector>

#include "analyzers/project/build_config.h"
#include "analyzers/project/build_toml_section.h"

namespace kl::analyzers {

// Reads [general]; returns the range of its header (the start of the file when it is missing),
// where problems of the whole file are reported.
Range read_general_section(const toml::table& root, BuildTomlContext& context,
                           GeneralSection& general);

// Reads the one framework section ([torch], [torch-noarch] or [tvm-ffi]); reports none or
// several at `anchor` / at the extra sections.
void read_framework_section(const toml::table& root, BuildTomlContext& context, Range anchor,
                            FrameworkSection& framework);

// Reads every [kernel.<name>], in the order of the file.
void read_kernel_sections(const toml::table& root, BuildTomlContext& context,
                          std::vector<KernelSection>& kernels);

}  // namespace kl::analyzers
