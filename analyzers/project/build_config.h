#pragma once
// The kernel-builder project model: what a build.toml says, with the place each value came from.
// Parsing (build_toml_parser.h) fills it; rules and the CLI read it. Plain data, no toml++ types.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/project/capability.h"

namespace kl::analyzers {

// One string of `cuda-capabilities`, kept even when it does not parse, so that
// arch-unsupported can point at it.
struct CapabilityEntry {
  std::string text;                     // as written, e.g. "9.0a"
  std::optional<Capability> capability; // empty when `text` is not a capability
  Range range;                          // the string literal in build.toml
};

struct KernelDependency {  // kernel-depends entries
  std::string repo_id;
  std::optional<int> version;
  std::optional<std::string> revision;
  Range range;
};

struct KernelSection {  // [kernel.<name>]
  std::string name;
  Range header_range;  // the [kernel.<name>] header (or the key of an inline table)
  std::string backend; // cuda, rocm, metal, cpu, xpu, ...
  std::vector<std::string> src;
  std::vector<std::string> depends;
  std::vector<std::string> include;
  std::vector<std::string> cxx_flags;
  // CUDA only
  std::optional<std::vector<CapabilityEntry>> cuda_capabilities;
  Range cuda_capabilities_range;  // the whole array value, for fixes that rewrite the list
  std::vector<std::string> cuda_flags;
  std::optional<std::string> cuda_minver;
  // ROCm / XPU
  std::vector<std::string> rocm_archs;
  std::vector<std::string> hip_flags;
  std::vector<std::string> sycl_flags;
};

enum class FrameworkKind { None, Torch, TorchNoarch, TvmFfi };

struct FrameworkSection {
  FrameworkKind kind = FrameworkKind::None;
  std::vector<std::string> src;
  std::vector<std::string> include;
  std::vector<std::string> pyext;
  std::vector<std::string> cxx_flags;
  std::optional<std::string> minver;
  std::optional<std::string> maxver;
  std::optional<std::string> stable_abi;
};

struct GeneralSection {
  std::string name;
  std::optional<int> version;
  std::optional<int> edition;
  std::optional<std::string> license;
  std::vector<std::string> backends;
  std::optional<std::string> upstream;
  std::optional<std::string> source;
  std::vector<std::string> python_depends;
  std::vector<KernelDependency> kernel_depends;
  std::optional<std::string> cuda_minver;
  std::optional<std::string> cuda_maxver;
  std::vector<std::string> cuda_python_depends;
  std::optional<std::string> hub_repo_id;
  std::optional<std::string> hub_branch;
};

struct BuildConfig {
  std::filesystem::path file;   // absolute path of build.toml
  int format_version = 5;       // 5 (edition 5), 4 (legacy, read with a warning)
  GeneralSection general;
  FrameworkSection framework;
  std::vector<KernelSection> kernels;

  std::filesystem::path project_dir() const { return file.parent_path(); }
  // The CUDA kernel sections whose `src` lists `source` (an absolute path). Empty when none does.
  std::vector<const KernelSection*> kernels_for_source(const std::filesystem::path& source) const;
};

// Whether a `src` list names `relative` (a path relative to the build.toml's folder): as a file,
// or inside a folder it names ("csrc", "csrc/", "./csrc"; "." is the whole project).
bool src_lists(const std::vector<std::string>& src, const std::filesystem::path& relative);

// Result of reading a build.toml: the model when it could be built, and every problem found,
// each with an exact range (findings without a rule id: the `build-toml` rule,
// analyzers/rules/build_toml.cpp, gives them theirs). A config may come with warnings.
struct BuildConfigParse {
  std::optional<BuildConfig> config;
  std::vector<Finding> problems;
};

BuildConfigParse parse_build_toml(const std::filesystem::path& file, std::string_view text);

}  // namespace kl::analyzers
