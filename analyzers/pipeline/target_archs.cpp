#include "analyzers/pipeline/target_archs.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "analyzers/data/arch_table.h"
#include "analyzers/project/declared_archs.h"
#include "analyzers/project/project_locator.h"
#include "analyzers/rules/arch_unsupported.h"
#include "support/fs_paths.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

namespace {

// The caller's build.toml, else the nearest one on disk when it can be read (parsed into
// `own_parse`); null when neither is there or its model could not be built. `broken` is the
// parse of one that is there but could not be read as a build.toml.
const BuildConfig* applicable_config(const fs::path& file, const BuildConfigParse* project,
                                     std::optional<BuildConfigParse>& own_parse,
                                     std::optional<fs::path>& broken_file, const BuildConfigParse*& broken) {
  const BuildConfigParse* config_parse = project;
  std::optional<fs::path> toml;
  if (!config_parse) {
    toml = find_build_toml(file);
    if (toml) {
      if (auto toml_text = read_file_text(*toml)) {
        own_parse = parse_build_toml(*toml, *toml_text);
        config_parse = &*own_parse;
      }
    }
  }
  if (config_parse && !config_parse->config) {
    broken = config_parse;
    broken_file = toml;
    if (!broken_file && !config_parse->problems.empty())
      broken_file = config_parse->problems.front().location.file;
  }
  return config_parse && config_parse->config ? &*config_parse->config : nullptr;
}

// Why a build.toml that is there gives no archs: its first problem, where it is.
std::string broken_build_toml_reason(const BuildConfigParse& parse) {
  if (parse.problems.empty()) return "build.toml could not be read as a build.toml";
  const Finding& first = parse.problems.front();
  return "build.toml does not parse (line " + std::to_string(first.location.range.start.line + 1) + ": " +
         first.message + "), so nothing declares which archs this file is built for";
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

std::string version_text(int major, int minor) { return std::to_string(major) + "." + std::to_string(minor); }

// Nothing declares the file's archs: its most capable one of kernel-builder's default list that
// the toolkit can target, so that the parse sees the most code an arch guard can enable.
void assume_archs(int cuda_major, int cuda_minor, const CudaToolkit* toolkit, const std::string& why,
                  std::vector<ArchOrigin>& origins, ArchSelection& selection) {
  std::vector<ArchOrigin> defaults;
  for (const auto& c : builder_default_capabilities(cuda_major, cuda_minor))
    defaults.push_back({c, std::nullopt});
  std::vector<Capability> usable = usable_archs(defaults, toolkit);
  origins.clear();
  if (!usable.empty()) {
    Capability most =
        *std::max_element(usable.begin(), usable.end(),
                          [](const Capability& a, const Capability& b) { return a.number() < b.number(); });
    most.ptx = false;
    origins.push_back({most, std::nullopt});
  }
  selection.assumed = true;
  std::string assumed = origins.empty() ? "none" : origins.front().arch.text();
  selection.origin = "an assumed arch list (" + assumed + ": " + why + ")";
}

// Every arch asked for, from the first source that has a list (see target_archs.h); fills the
// selection's origin (and its build.toml array) but not its archs. `kernels` are the build.toml
// kernels that compile the file (when there is a build.toml).
std::vector<ArchOrigin> listed_archs(const fs::path& file, const BuildConfig* config,
                                     const BuildConfigParse* broken, const KernelsBuilding& kernels,
                                     const AnalysisSettings& settings, const CudaToolkit* toolkit,
                                     const CompileFlags* compile_flags, ArchSelection& selection,
                                     std::vector<fs::path>& build_files_read) {
  int cuda_major = toolkit ? toolkit->version_major : 13;
  int cuda_minor = toolkit ? toolkit->version_minor : 0;
  std::vector<ArchOrigin> origins;
  if (!settings.arch_override.empty()) {
    for (const auto& c : settings.arch_override) origins.push_back({c, std::nullopt});
    selection.origin = "--arch";
    return origins;
  }
  if (config) {
    SourceCapabilities caps = capabilities_of(kernels, cuda_major, cuda_minor);
    for (const auto& entry : caps.entries)
      if (entry.capability)
        origins.push_back({*entry.capability, Location{config->file.string(), entry.range}});
    selection.origin = build_toml_origin(kernels);
    if (caps.list_range) selection.origin_location = Location{config->file.string(), *caps.list_range};
    return origins;
  }
  // A kernel-builder project whose build.toml is broken: its archs are that file's to say, and
  // the user is fixing it; a setup.py beside it is not how the project builds.
  if (broken) {
    assume_archs(cuda_major, cuda_minor, toolkit, broken_build_toml_reason(*broken), origins, selection);
    return origins;
  }
  std::optional<std::string> env_list;
  if (const char* env = std::getenv("TORCH_CUDA_ARCH_LIST"); env && *env) env_list = env;
  std::optional<fs::path> database;
  std::vector<std::string> command;
  if (compile_flags) {
    database = compile_flags->database;
    command = compile_flags->command;
  }
  DeclaredArchs declared = find_declared_archs(file, database, command, env_list);
  build_files_read = declared.files_read;
  for (const auto& d : declared.archs)
    origins.push_back({d.arch, d.location.file.empty() ? std::nullopt : std::optional<Location>(d.location)});
  if (!origins.empty()) {
    selection.origin = declared.origin;
    if (!usable_archs(origins, toolkit).empty()) return origins;
    std::string listed;
    for (const auto& o : origins) listed += (listed.empty() ? "" : ", ") + o.arch.text();
    assume_archs(cuda_major, cuda_minor, toolkit,
                 declared.origin + " declares only archs CUDA " + version_text(cuda_major, cuda_minor) +
                     " cannot target (" + listed + ")",
                 origins, selection);
    return origins;
  }
  if (!settings.default_archs.empty()) {
    for (const auto& c : settings.default_archs) origins.push_back({c, std::nullopt});
    selection.origin = "the configured default archs";
    return origins;
  }
  assume_archs(cuda_major, cuda_minor, toolkit,
               "no build.toml, compile_commands.json, setup.py, CMake file, Makefile or TORCH_CUDA_ARCH_LIST "
               "declares which archs this file is built for",
               origins, selection);
  return origins;
}

}  // namespace

TargetArchs select_target_archs(const fs::path& file, const BuildConfigParse* project,
                                const AnalysisSettings& settings, const CudaToolkit* toolkit,
                                const CompileFlags* compile_flags) {
  TargetArchs result;
  std::optional<BuildConfigParse> own_parse;
  std::optional<fs::path> broken_file;
  const BuildConfigParse* broken = nullptr;
  const BuildConfig* config = applicable_config(file, project, own_parse, broken_file, broken);
  if (broken_file) result.build_files_read.push_back(*broken_file);  // fixing it changes the archs
  KernelsBuilding kernels;
  if (config) {
    result.build_toml = config->file;
    kernels = kernels_building(*config, file);
    result.include_dirs = include_dirs_of(*config, kernels);
  }
  result.origins = listed_archs(file, config, broken, kernels, settings, toolkit, compile_flags,
                                result.selection, result.build_files_read);
  result.selection.archs = usable_archs(result.origins, toolkit);
  return result;
}

}  // namespace kl::analyzers
