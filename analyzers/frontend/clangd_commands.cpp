#include "analyzers/frontend/clangd_commands.h"

#include <algorithm>
#include <array>
#include <utility>

#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/compile_database.h"
#include "analyzers/frontend/nvcc_macros.h"
#include "analyzers/project/builder_compile_flags.h"
#include "analyzers/project/kernel_includers.h"
#include "analyzers/project/project_locator.h"
#include "support/file_kinds.h"
#include "support/fs_paths.h"
#include "support/resources.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

namespace {

bool is_project_source(const fs::path& file) { return source_kind(file) != SourceKind::None; }

// Folders that hold no sources of the project: hidden ones (.git, .cache: clangd's index and
// ours), kernel-builder's and Nix's outputs, Python's and npm's.
bool skipped_folder(const std::string& name) {
  return name.empty() || name[0] == '.' || name == "build" || name == "result" ||
         name.rfind("result-", 0) == 0 || name == "node_modules" || name == "__pycache__";
}

std::vector<fs::path> project_files(const fs::path& project, bool& truncated) {
  std::vector<fs::path> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(project, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    std::error_code type_ec;
    if (entry.is_directory(type_ec)) {
      if (skipped_folder(entry.path().filename().string())) it.disable_recursion_pending();
      continue;
    }
    if (!entry.is_regular_file(type_ec) || !is_project_source(entry.path())) continue;
    if (files.size() == kMaxClangdFiles) {
      truncated = true;
      break;
    }
    files.push_back(entry.path().lexically_normal());
  }
  std::sort(files.begin(), files.end());
  return files;
}

int variant_rank(const Capability& capability) {
  switch (capability.variant) {
    case ArchVariant::Specific:
      return 2;  // 'a': every feature of the arch
    case ArchVariant::Family:
      return 1;
    case ArchVariant::Plain:
      return 0;
  }
  return 0;
}

// The most capable of `entries` that the toolkit can target ("9.0a" over "9.0" over "8.9");
// else the most capable of the builder's defaults; +PTX dropped (it changes what is emitted).
Capability most_capable(const std::vector<CapabilityEntry>& entries, const CudaToolkit& toolkit) {
  std::optional<Capability> best;
  auto consider = [&](Capability capability) {
    if (!toolkit.can_target(capability)) return;
    capability.ptx = false;
    if (!best || std::pair(capability.number(), variant_rank(capability)) >
                     std::pair(best->number(), variant_rank(*best)))
      best = capability;
  };
  for (const CapabilityEntry& entry : entries)
    if (entry.capability) consider(*entry.capability);
  if (!best)
    for (const Capability& capability :
         builder_default_capabilities(toolkit.version_major, toolkit.version_minor))
      consider(capability);
  return best ? *best : Capability{9, 0, ArchVariant::Plain, false};
}

bool depends_on_cutlass(const KernelSection& section) {
  return std::any_of(section.depends.begin(), section.depends.end(),
                     [](const std::string& d) { return d.rfind("cutlass", 0) == 0; });
}

void append(std::vector<std::string>& to, const std::vector<std::string>& flags) {
  to.insert(to.end(), flags.begin(), flags.end());
}

std::string python_name(const BuildConfig& config) {
  std::string name = config.general.name;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// Everything a command needs besides the file and its kernels, computed once per project.
struct ProjectContext {
  const BuildConfig& config;
  const ClangdToolchain& toolchain;
  const std::optional<fs::path>& user_database;
  fs::path project;
  std::vector<std::string> torch_flags;  // real headers or the stand-in
};

// Flags that come from the project itself, after the language's own: build.toml's flags for
// the file (already for clang), the user's compile_commands.json, include folders, then CUTLASS
// and torch where those flags do not already reach them.
void add_project_flags(const ProjectContext& context, const fs::path& file,
                       std::vector<std::string> project_flags, const std::vector<fs::path>& include_dirs,
                       std::vector<std::string>& argv) {
  if (context.user_database)
    if (auto flags = flags_from_database(*context.user_database, file)) append(project_flags, flags->args);
  for (const fs::path& dir : include_dirs) project_flags.push_back("-I" + dir.string());
  append(argv, project_flags);
  append(argv, cutlass_include_flags(context.toolchain.cutlass, project_flags));
  if (!include_flags_reach_torch(project_flags)) append(argv, context.torch_flags);
}

ClangdEntry device_entry(const ProjectContext& context, const fs::path& file,
                         const KernelsBuilding& kernels) {
  const CudaToolkit& toolkit = context.toolchain.toolkit;
  SourceCapabilities capabilities = capabilities_of(kernels, toolkit.version_major, toolkit.version_minor);
  const Capability capability = most_capable(capabilities.entries, toolkit);
  bool override_macros = false;
  std::vector<std::string> argv = {"clang++", "-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=" + clang_gpu_arch(capability, override_macros),
                                   // No libdevice (nothing is linked) and no complaint that clang 19
                                   // does not know CUDA 13.
                                   "-nocudalib", "--no-cuda-version-check", "-Wno-unknown-cuda-version",
                                   "-std=c++17"};
  append(argv, toolkit_flags(toolkit.root, context.toolchain.shim_dir));
  append(argv, arch_macro_flags(capability));
  for (const auto& [name, value] :
       nvcc_compiler_macros(NvccVersion{toolkit.version_major, toolkit.version_minor, std::nullopt}))
    argv.push_back("-D" + name + "=" + value);
  append(argv, builder_defines(context.config));
  // Each kernel's cuda-flags (a list shared by several kernels once), and torch's CMake flags.
  std::vector<std::vector<std::string>> flag_lists;
  for (const KernelSection* kernel : kernels.kernels) {
    if (depends_on_torch(*kernel)) flag_lists.push_back(torch_nvcc_flags());
    flag_lists.push_back(kernel->cuda_flags);
  }
  std::vector<std::string> build_flags;
  for (size_t i = 0; i < flag_lists.size(); ++i)
    if (std::find(flag_lists.begin(), flag_lists.begin() + static_cast<ptrdiff_t>(i), flag_lists[i]) ==
        flag_lists.begin() + static_cast<ptrdiff_t>(i))
      append(build_flags, clang_flags_for(flag_lists[i], context.project));
  add_project_flags(context, file, std::move(build_flags), include_dirs_of(context.config, kernels), argv);
  argv.push_back("-c");
  argv.push_back(file.string());
  std::string origin;
  for (const KernelSection* kernel : kernels.kernels)
    origin += (origin.empty() ? "[kernel." : ", [kernel.") + kernel->name + "]";
  if (origin.empty()) origin = "no CUDA kernel";
  origin += " " + capability.text();
  if (kernels.match == KernelMatch::IncludedBy) origin += ", as the .cu files that include it";
  if (kernels.match == KernelMatch::AllCudaKernels) origin += ", not listed or included: every CUDA kernel's";
  return ClangdEntry{file, std::move(argv), true, std::move(origin)};
}

// A C++ compiler's flags (cxx-flags) for clang: clang_flags_for's selection, plus the -m target
// options (-mavx512f, -march=...), without which clang rejects the intrinsics they enable.
std::vector<std::string> host_flags_for(const std::vector<std::string>& cxx_flags,
                                        const fs::path& directory) {
  std::vector<std::string> flags = clang_flags_for(cxx_flags, directory);
  for (const std::string& flag : cxx_flags)
    if (flag.rfind("-m", 0) == 0 && flag.size() > 2) flags.push_back(flag);
  return flags;
}

// The host side: C++17 with CUDA's runtime headers, kernel-builder's defines, the flags and
// include folders of the [torch] section and of the CUDA or CPU kernels that list the file.
ClangdEntry host_entry(const ProjectContext& context, const fs::path& file,
                       const std::vector<const KernelSection*>& sections, bool framework_source) {
  const fs::path& cuda_root = context.toolchain.toolkit.root;
  const BuildConfig& config = context.config;
  std::vector<std::string> argv = {"clang++", "-std=c++17", "-isystem", (cuda_root / "include").string()};
  std::error_code ec;
  if (fs::is_directory(cuda_root / "include" / "cccl", ec)) {
    argv.push_back("-isystem");
    argv.push_back((cuda_root / "include" / "cccl").string());
  }
  append(argv, builder_defines(config));
  const bool torch = config.framework.kind == FrameworkKind::Torch;
  // kernel-builder names the op namespace _<name>_<backend>_<hash>; any identifier parses.
  if (torch) argv.push_back("-DTORCH_EXTENSION_NAME=_" + python_name(config) + "_cuda");
  std::vector<std::string> cxx_flags = host_flags_for(config.framework.cxx_flags, context.project);
  std::vector<fs::path> include_dirs;
  for (const std::string& entry : config.framework.include)
    include_dirs.push_back((context.project / entry).lexically_normal());
  for (const KernelSection* section : sections) {
    append(cxx_flags, host_flags_for(section->cxx_flags, context.project));
    for (fs::path& dir : kernel_include_dirs(config, *section))
      if (std::find(include_dirs.begin(), include_dirs.end(), dir) == include_dirs.end())
        include_dirs.push_back(std::move(dir));
  }
  add_project_flags(context, file, std::move(cxx_flags), include_dirs, argv);
  // After every folder of the project's: a registration.h of its own wins.
  if (torch && !context.toolchain.registration_dir.empty()) {
    argv.push_back("-idirafter");
    argv.push_back(context.toolchain.registration_dir.string());
  }
  if (torch && !context.toolchain.python_include_dir.empty()) {
    argv.push_back("-isystem");
    argv.push_back(context.toolchain.python_include_dir.string());
  }
  argv.push_back("-c");
  argv.push_back(file.string());
  std::string origin = "host C++";
  if (framework_source) origin += " ([torch])";
  for (const KernelSection* section : sections) origin += " [kernel." + section->name + "]";
  return ClangdEntry{file, std::move(argv), false, std::move(origin)};
}

bool is_cuda_or_cpu(const KernelSection* section) {
  return section->backend == "cuda" || section->backend == "cpu";
}

// The command for one file; nothing for a file that only kernels of other backends (ROCm, XPU,
// Metal, ...) list: clang cannot parse those as CUDA or plain C++.
std::optional<ClangdEntry> entry_for(const ProjectContext& context, const fs::path& file,
                                     std::vector<std::string>& other_backends) {
  const fs::path relative = file.lexically_relative(context.project);
  const bool framework_source = src_lists(context.config.framework.src, relative);
  std::vector<const KernelSection*> listing;
  for (const KernelSection& section : context.config.kernels)
    if (src_lists(section.src, relative)) listing.push_back(&section);
  if (!framework_source && !listing.empty() && std::none_of(listing.begin(), listing.end(), is_cuda_or_cpu)) {
    for (const KernelSection* section : listing)
      if (std::find(other_backends.begin(), other_backends.end(), section->backend) == other_backends.end())
        other_backends.push_back(section->backend);
    return std::nullopt;
  }
  listing.erase(std::remove_if(listing.begin(), listing.end(), [](auto* s) { return !is_cuda_or_cpu(s); }),
                listing.end());
  const SourceKind kind = source_kind(file);
  const bool cuda_file = kind == SourceKind::Cuda;
  const bool host_source = kind == SourceKind::CxxSource || kind == SourceKind::CSource;
  if (host_source || (framework_source && !cuda_file))
    return host_entry(context, file, listing, framework_source);
  KernelsBuilding kernels = kernels_building(context.config, file);
  const bool compiled_as_cuda =
      kernels.match == KernelMatch::Listed || kernels.match == KernelMatch::IncludedBy;
  if (cuda_file || compiled_as_cuda) return device_entry(context, file, kernels);
  return host_entry(context, file, listing, false);
}

void add_notes(const BuildConfig& config, const ClangdToolchain& toolchain, ClangdCommands& out) {
  if (toolchain.torch.found()) {
    out.notes.push_back(toolchain.torch.describe());
  } else {
    out.notes.push_back(
        "no PyTorch headers found (--torch-include-path, Torch_DIR, TORCH_INSTALL_PREFIX, the torch of "
        "python3): "
        "files that include them are parsed with kernel-lsp's stand-in (" +
        toolchain.torch_standin_dir.string() +
        "), which declares the parts of the API kernel files and bindings use; go-to-definition into torch "
        "lands "
        "there, and a torch function it lacks is an error in clangd");
  }
  const bool cutlass = std::any_of(config.kernels.begin(), config.kernels.end(), depends_on_cutlass);
  if (cutlass && !toolchain.cutlass)
    out.notes.push_back(
        "a kernel depends on CUTLASS but no checkout was found (--cutlass-path, CUTLASS_PATH): clangd will "
        "report "
        "its #include <cute/...> and <cutlass/...> as missing");
  if (config.framework.kind == FrameworkKind::Torch) {
    if (toolchain.registration_dir.empty())
      out.notes.push_back(
          "kernel-lsp's stand-in for the builder-generated registration.h (kernels/common) was not found: "
          "#include \"registration.h\" is an error in clangd");
    else if (toolchain.python_include_dir.empty())
      out.notes.push_back(
          "no Python headers found (python3-dev): the registration.h stand-in includes <Python.h>, so clangd "
          "reports it missing in the torch-ext binding");
  }
}

}  // namespace

std::vector<std::string> clang_flags_for(const std::vector<std::string>& nvcc_flags,
                                         const fs::path& directory) {
  std::vector<std::string> argv = {"nvcc"};
  append(argv, nvcc_flags);
  std::vector<std::string> flags = translate_compile_command(argv, directory);
  auto given = [&](std::initializer_list<const char*> spellings) {
    return std::any_of(nvcc_flags.begin(), nvcc_flags.end(), [&](const std::string& flag) {
      return std::any_of(spellings.begin(), spellings.end(), [&](const char* s) { return flag == s; });
    });
  };
  if (given({"--expt-relaxed-constexpr", "-expt-relaxed-constexpr"}))
    flags.push_back("-D__CUDACC_RELAXED_CONSTEXPR__");
  if (given({"--expt-extended-lambda", "-expt-extended-lambda", "--extended-lambda", "-extended-lambda"}))
    flags.push_back("-D__CUDACC_EXTENDED_LAMBDA__");
  return flags;
}

Result<ClangdToolchain> find_clangd_toolchain(const ClangdToolchainQuery& query) {
  auto toolkit = find_cuda_toolkit(query.cuda_path);
  if (!toolkit) return toolkit.error();
  ClangdToolchain toolchain;
  toolchain.toolkit = *toolkit;
  toolchain.shim_dir = default_shim_dir();
  if (toolchain.shim_dir.empty())
    return make_error(
        "kernel-lsp's CUDA shim headers (analyzers/frontend/shims) are missing from its installation: clangd "
        "cannot parse CUDA 13's headers without them (set KERNEL_LSP_RESOURCE_DIR to the folder that holds "
        "analyzers/frontend/shims)");
  TorchHeaderQuery torch_query;
  torch_query.explicit_dirs = query.torch_include_dirs;
  toolchain.torch = find_torch_headers(torch_query);
  toolchain.torch_standin_dir = default_torch_standin_dir();
  toolchain.cutlass = find_cutlass_headers(query.cutlass_paths);
  if (auto found = find_resource(resources::kKernelRegistrationHeader))
    toolchain.registration_dir = found->parent_path();
  // torch's own answer (python3's torch) carries Python's include folder; other lookups do not.
  std::error_code ec;
  const bool python_reached =
      std::any_of(toolchain.torch.include_dirs.begin(), toolchain.torch.include_dirs.end(),
                  [&](const fs::path& dir) { return fs::exists(dir / "Python.h", ec); });
  if (!python_reached)
    if (auto python = python_include_beside("/usr/include")) toolchain.python_include_dir = *python;
  return toolchain;
}

ClangdCommands clangd_commands(const BuildConfig& config, const ClangdToolchain& toolchain,
                               const std::optional<fs::path>& user_database) {
  ClangdCommands out;
  ProjectContext context{config, toolchain, user_database, absolute_normal(config.project_dir()),
                         torch_include_flags(toolchain.torch, toolchain.torch_standin_dir)};
  bool truncated = false;
  std::vector<std::string> other_backends;
  for (const fs::path& file : project_files(context.project, truncated))
    if (auto entry = entry_for(context, file, other_backends)) out.entries.push_back(std::move(*entry));
  if (!other_backends.empty()) {
    std::string names;
    for (const std::string& backend : other_backends) names += (names.empty() ? "" : ", ") + backend;
    out.notes.push_back("files that only kernels of other backends list (" + names +
                        ") are left out: clang cannot parse them as CUDA or plain C++");
  }
  if (truncated)
    out.notes.push_back(
        "the project holds more than " + std::to_string(kMaxClangdFiles) +
        " C, C++ and CUDA files: only the first are listed; clangd borrows a listed neighbour's "
        "command for the others");
  add_notes(config, toolchain, out);
  return out;
}

}  // namespace kl::analyzers
