#include "analyzers/frontend/clang_command.h"

#include <array>

#include "support/fs_paths.h"
#include "support/resources.h"

#ifndef KERNEL_LSP_CLANG_RESOURCE_DIR
#define KERNEL_LSP_CLANG_RESOURCE_DIR "/usr/lib/llvm-19/lib/clang/19"
#endif

namespace kl::analyzers {

namespace {
// CUDA archs clang 19 accepts for --cuda-gpu-arch that CUDA 13 can also target.
constexpr std::array<int, 6> kClangKnownSms = {75, 80, 86, 87, 89, 90};
}  // namespace

std::string clang_gpu_arch(const Capability& capability, bool& needs_macro_override) {
  int sm = capability.number();
  int chosen = 0;
  for (int known : kClangKnownSms)
    if (known <= sm) chosen = known;
  if (chosen == 0) chosen = kClangKnownSms.front();
  bool is_90a = chosen == 90 && sm == 90 && capability.variant == ArchVariant::Specific;
  needs_macro_override = chosen != sm || capability.variant != ArchVariant::Plain;
  return "sm_" + std::to_string(chosen) + (is_90a ? "a" : "");
}

std::vector<std::pair<std::string, std::string>> nvcc_arch_macros(const Capability& capability) {
  std::string value = std::to_string(capability.cuda_arch_macro());
  std::vector<std::pair<std::string, std::string>> macros = {{"__CUDA_ARCH__", value},
                                                             {"__CUDA_ARCH_LIST__", value}};
  if (capability.variant == ArchVariant::Specific) {
    macros.emplace_back("__CUDA_ARCH_FEAT_SM" + std::to_string(capability.number()) + "_ALL", "1");
    macros.emplace_back("__CUDA_ARCH_SPECIFIC__", value);
    macros.emplace_back("__CUDA_ARCH_FAMILY_SPECIFIC__", value);
  } else if (capability.variant == ArchVariant::Family) {
    macros.emplace_back("__CUDA_ARCH_FAMILY_SPECIFIC__", value);
  }
  return macros;
}

std::filesystem::path default_shim_dir() {
  if (auto found = find_resource(resources::kCudaShims)) return *found;
  return {};
}

std::filesystem::path default_resource_dir() { return KERNEL_LSP_CLANG_RESOURCE_DIR; }

std::vector<std::string> toolkit_flags(const std::filesystem::path& cuda_root,
                                       const std::filesystem::path& shim_dir) {
  std::vector<std::string> flags;
  if (!cuda_root.empty()) flags.push_back("--cuda-path=" + cuda_root.string());
  // CUDA 13 keeps CCCL (libcu++, CUB, Thrust) in include/cccl, which nvcc adds as -isystem
  // through nvcc.profile; clang does not, so <cuda/atomic> (included by cooperative_groups.h),
  // <cub/...> and <thrust/...> would be missing.
  std::error_code ec;
  if (!cuda_root.empty() && std::filesystem::is_directory(cuda_root / "include" / "cccl", ec)) {
    flags.push_back("-isystem");
    flags.push_back((cuda_root / "include" / "cccl").string());
  }
  if (!shim_dir.empty()) {
    flags.push_back("-isystem");
    flags.push_back(shim_dir.string());
    if (!cuda_root.empty()) {
      flags.push_back("-include");
      flags.push_back("kernel_lsp_launch_shim.h");
      // nvcc's atomic builtins, which headers pick by the nvcc version defined below.
      flags.push_back("-include");
      flags.push_back("kernel_lsp_nvcc_builtins.h");
    }
  }
  // cooperative_groups.h declares cluster_group / this_cluster() only for nvcc, NVRTC or when
  // this macro says the cluster intrinsics exist (and __CUDA_ARCH__ >= 900): without it, every
  // use of clusters is an undeclared name to clang and the arch rule cannot see the feature.
  flags.push_back("-D_CG_CLUSTER_INTRINSICS_AVAILABLE");
  return flags;
}

std::vector<std::string> arch_macro_flags(const Capability& capability) {
  bool override_macros = false;
  clang_gpu_arch(capability, override_macros);
  // Always state what nvcc would define; for archs clang knows this is a no-op redefinition,
  // for the rest it is what makes `#if __CUDA_ARCH__ >= 1000` see the right value.
  std::vector<std::string> flags;
  for (const auto& [name, value] : nvcc_arch_macros(capability)) {
    if (name == "__CUDA_ARCH__" && !override_macros) continue;
    flags.push_back("-U" + name);
    flags.push_back("-D" + name + "=" + value);
  }
  return flags;
}

std::vector<std::string> device_parse_command(const ClangCommandInputs& inputs,
                                              const Capability& capability) {
  bool override_macros = false;  // arch_macro_flags redefines what needs it
  std::string gpu_arch = clang_gpu_arch(capability, override_macros);
  std::vector<std::string> argv = {
      "clang++",
      "-x", "cuda",
      "--cuda-device-only",
      "--cuda-gpu-arch=" + gpu_arch,
      "-nocudalib",
      "-fsyntax-only",
      "-std=c++17",
      "-ferror-limit=0",
      // No warnings: only errors are reported, and with every warning off clang also skips the
      // flow analyses it runs at the end of each function body for -Wuninitialized and friends.
      "-w",
      // No typo correction: it searches every identifier in scope (the headers' included) for
      // each unknown name, and files whose torch/ATen headers are missing have many of those.
      // It would also "correct" a builtin this arch lacks into one it has.
      "-fno-spell-checking",
      "-Wno-unknown-cuda-version",
      "-Wno-unknown-attributes",
      "-Wno-ignored-attributes",
      "-Wno-pragma-once-outside-header",
      "-resource-dir=" + inputs.resource_dir.string(),
  };
  std::vector<std::string> toolkit = toolkit_flags(inputs.cuda_root, inputs.shim_dir);
  argv.insert(argv.end(), toolkit.begin(), toolkit.end());
  std::vector<std::string> arch = arch_macro_flags(capability);
  argv.insert(argv.end(), arch.begin(), arch.end());
  // Not defined by clang at all; before the project's flags, which may redefine them.
  for (const auto& [name, value] : nvcc_compiler_macros(inputs.nvcc_version))
    argv.push_back("-D" + name + "=" + value);
  argv.insert(argv.end(), inputs.project_flags.begin(), inputs.project_flags.end());
  for (const std::filesystem::path& dir : inputs.build_toml_include_dirs)
    argv.push_back("-I" + dir.string());
  argv.insert(argv.end(), inputs.extra_flags.begin(), inputs.extra_flags.end());
  argv.push_back(inputs.file.string());
  return argv;
}

}  // namespace kl::analyzers
