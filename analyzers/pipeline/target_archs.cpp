#include "analyzers/pipeline/target_archs.h"

#include <algorithm>
#include <string>

#include "analyzers/data/arch_table.h"
#include "analyzers/project/project_locator.h"
#include "analyzers/rules/arch_unsupported.h"
#include "support/fs_paths.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

namespace {

// The caller's build.toml, else the nearest one on disk when it can be read (parsed into
// `own_parse`); null when neither is there or its model could not be built.
const BuildConfig* applicable_config(const fs::path& file, const BuildConfigParse* project,
                                     std::optional<BuildConfigParse>& own_parse) {
  const BuildConfigParse* config_parse = project;
  if (!config_parse) {
    if (auto toml = find_build_toml(file)) {
      if (auto toml_text = read_file_text(*toml)) {
        own_parse = parse_build_toml(*toml, *toml_text);
        config_parse = &*own_parse;
      }
    }
  }
  return config_parse && config_parse->config ? &*config_parse->config : nullptr;
}

// "build.toml", and for a header the kernels whose sources include it, so that "build.toml builds
// this code for sm_80" names where sm_80 comes from when the header's own section does not.
std::string build_toml_origin(const KernelsBuilding& kernels) {
  if (kernels.match != KernelMatch::IncludedBy) return "build.toml";
  std::string names;
  for (const KernelSection* kernel : kernels.kernels)
    names += (names.empty() ? "" : ", ") + ("[kernel." + kernel->name + "]");
  return "build.toml (this file is included by the sources of " + names + ")";
}

// Every arch asked for, from the first source that has a list (see target_archs.h); fills the
// selection's origin (and its build.toml array) but not its archs. `kernels` are the build.toml
// kernels that compile the file (when there is a build.toml).
std::vector<ArchOrigin> listed_archs(const BuildConfig* config, const KernelsBuilding& kernels,
                                     const AnalysisSettings& settings, const CudaToolkit* toolkit,
                                     ArchSelection& selection) {
  int cuda_major = toolkit ? toolkit->version_major : 13;
  int cuda_minor = toolkit ? toolkit->version_minor : 0;
  std::vector<ArchOrigin> origins;
  if (!settings.arch_override.empty()) {
    for (const auto& c : settings.arch_override) origins.push_back({c, std::nullopt});
    selection.origin = "--arch";
  } else if (config) {
    SourceCapabilities caps = capabilities_of(kernels, cuda_major, cuda_minor);
    for (const auto& entry : caps.entries)
      if (entry.capability)
        origins.push_back({*entry.capability, Location{config->file.string(), entry.range}});
    selection.origin = build_toml_origin(kernels);
    if (caps.list_range) selection.origin_location = Location{config->file.string(), *caps.list_range};
  } else if (!settings.default_archs.empty()) {
    for (const auto& c : settings.default_archs) origins.push_back({c, std::nullopt});
    selection.origin = "the configured default archs";
  } else {
    for (const auto& c : builder_default_capabilities(cuda_major, cuda_minor))
      origins.push_back({c, std::nullopt});
    selection.origin = "the kernel-builder default list for CUDA " + std::to_string(cuda_major) + "." +
                       std::to_string(cuda_minor) + " (no build.toml found)";
  }
  return origins;
}

// The listed archs that can be analysed, each once, in the order listed.
std::vector<Capability> usable_archs(const std::vector<ArchOrigin>& origins, const CudaToolkit* toolkit) {
  std::vector<Capability> targets;
  for (const auto& origin : origins) {
    if (!capability_is_usable(origin.arch, ArchTable::builtin(), toolkit)) continue;
    if (std::find(targets.begin(), targets.end(), origin.arch) == targets.end())
      targets.push_back(origin.arch);
  }
  return targets;
}

}  // namespace

TargetArchs select_target_archs(const fs::path& file, const BuildConfigParse* project,
                                const AnalysisSettings& settings, const CudaToolkit* toolkit) {
  TargetArchs result;
  std::optional<BuildConfigParse> own_parse;
  const BuildConfig* config = applicable_config(file, project, own_parse);
  KernelsBuilding kernels;
  if (config) {
    result.build_toml = config->file;
    kernels = kernels_building(*config, file);
    result.include_dirs = include_dirs_of(*config, kernels);
  }
  result.origins = listed_archs(config, kernels, settings, toolkit, result.selection);
  result.selection.archs = usable_archs(result.origins, toolkit);
  return result;
}

}  // namespace kl::analyzers
