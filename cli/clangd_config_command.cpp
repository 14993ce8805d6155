#include "cli/clangd_config_command.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include "analyzers/frontend/clangd_commands.h"
#include "analyzers/frontend/content_hash.h"
#include "analyzers/project/project_locator.h"
#include "cli/clangd_config_files.h"
#include "support/fs_paths.h"

namespace kl::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "kernel-lsp: clangd-config: ";

// The build.toml's model, or nothing after printing its errors as file:line:col (1-based).
std::optional<analyzers::BuildConfig> read_project(const fs::path& toml, std::ostream& err) {
  auto text = read_file_text(toml);
  if (!text) {
    err << kPrefix << toml.string() << ": cannot be read\n";
    return std::nullopt;
  }
  analyzers::BuildConfigParse parsed = analyzers::parse_build_toml(toml, *text);
  bool errors = !parsed.config.has_value();
  for (const analyzers::Finding& problem : parsed.problems) {
    if (problem.severity != analyzers::Severity::Error) continue;
    errors = true;
    err << toml.string() << ":" << problem.location.range.start.line + 1 << ":"
        << problem.location.range.start.column + 1 << ": error: " << problem.message << "\n";
  }
  if (errors) {
    err << kPrefix << toml.string() << " has errors: fix them first (`kernel-lsp lint " << toml.string()
        << "` explains each)\n";
    return std::nullopt;
  }
  if (std::none_of(parsed.config->kernels.begin(), parsed.config->kernels.end(),
                   [](const analyzers::KernelSection& k) { return k.backend == "cuda"; })) {
    err << toml.string()
        << ":1:1: error: no [kernel.*] section with backend = \"cuda\": clangd-config sets clangd "
        << "up for CUDA kernels\n";
    return std::nullopt;
  }
  return std::move(parsed.config);
}

// Where kernel-lsp's compile_commands.json goes, and which one of the user's it folds in.
struct DatabasePlan {
  fs::path target;
  std::string clangd_dir;  // CompilationDatabase, relative to the .clangd
  std::optional<fs::path> user_database;
  bool user_database_kept = false;  // the project's own compile_commands.json is the user's
};

DatabasePlan plan_database(const fs::path& project, const std::optional<std::string>& existing_clangd) {
  DatabasePlan plan;
  const fs::path root_database = project / "compile_commands.json";
  std::error_code ec;
  if (fs::exists(root_database, ec)) {
    const std::string recorded = existing_clangd ? recorded_database_hash(*existing_clangd) : std::string();
    auto text = read_file_text(root_database);
    // Ours: the hash the block recorded; with no block (a .clangd removed), the shim only
    // kernel-lsp's commands force-include.
    const bool ours = text && (recorded.empty() ? text->find("kernel_lsp_launch_shim.h") != std::string::npos
                                                : analyzers::content_hash(*text) == recorded);
    if (!ours) {
      plan.target = project / ".cache" / "kernel-lsp" / "compile_commands.json";
      plan.clangd_dir = ".cache/kernel-lsp";
      plan.user_database = root_database;
      plan.user_database_kept = true;
      return plan;
    }
  }
  plan.target = root_database;
  plan.clangd_dir = ".";
  // A CMake build folder's database (kernel-builder's, nvcc's commands): its flags join ours.
  if (fs::exists(project / "build" / "compile_commands.json", ec))
    plan.user_database = project / "build" / "compile_commands.json";
  return plan;
}

std::string relative_to(const fs::path& file, const fs::path& project) {
  fs::path relative = file.lexically_relative(project);
  return relative.empty() ? file.string() : relative.string();
}

void report(const fs::path& project, const fs::path& toml, const analyzers::ClangdToolchain& toolchain,
            const analyzers::ClangdCommands& commands, const DatabasePlan& plan, bool dry_run,
            bool clangd_had_block, std::ostream& out) {
  const char* verb = dry_run ? "would write " : "wrote ";
  size_t device = static_cast<size_t>(
      std::count_if(commands.entries.begin(), commands.entries.end(), [](const auto& e) { return e.cuda; }));
  out << "kernel-lsp clangd-config: " << toml.string() << "\n";
  out << "  CUDA " << toolchain.toolkit.version_text() << " at " << toolchain.toolkit.root.string() << " ("
      << toolchain.toolkit.found_by << ")\n";
  out << "  " << verb << relative_to(plan.target, project) << ": " << commands.entries.size() << " files ("
      << device << " CUDA on the device side, " << commands.entries.size() - device << " host C++)\n";
  if (dry_run)
    for (const auto& entry : commands.entries)
      out << "    " << relative_to(entry.file, project) << "  " << entry.origin << "\n";
  if (plan.user_database_kept)
    out << "  kept compile_commands.json (your build's; its flags are folded into kernel-lsp's)\n";
  else if (plan.user_database)
    out << "  folded in the flags of " << relative_to(*plan.user_database, project) << "\n";
  out << "  " << verb << ".clangd ("
      << (clangd_had_block ? "kernel-lsp's block replaced" : "kernel-lsp's block") << ")\n";
  for (const std::string& note : commands.notes) out << "  note: " << note << "\n";
  auto first_cuda =
      std::find_if(commands.entries.begin(), commands.entries.end(), [](const auto& e) { return e.cuda; });
  if (!dry_run && first_cuda != commands.entries.end())
    out << "Check one file with: (cd " << project.string()
        << " && clangd --check=" << relative_to(first_cuda->file, project) << ")\n";
}

bool write(const fs::path& path, const std::string& text, std::ostream& err) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (!write_file_atomically(path, text)) {
    err << kPrefix << path.string() << ": cannot be written\n";
    return false;
  }
  return true;
}

}  // namespace

int run_clangd_config(const ClangdConfigOptions& options, std::ostream& out, std::ostream& err) {
  fs::path start = absolute_normal(options.dir.empty() ? fs::path(".") : fs::path(options.dir));
  std::error_code ec;
  if (fs::is_regular_file(start, ec)) start = start.parent_path();  // a file of the project names it too
  if (!fs::is_directory(start, ec)) {
    err << kPrefix << options.dir
        << ": no such folder (expected a folder or file of a kernel-builder project)\n";
    return 2;
  }
  auto toml = analyzers::find_build_toml(start);
  if (!toml) {
    err << kPrefix << "no build.toml in " << start.string()
        << " or any folder above it: clangd-config needs a kernel-builder project\n";
    return 2;
  }
  const fs::path toml_path = absolute_normal(*toml);
  auto config = read_project(toml_path, err);
  if (!config) return 2;

  analyzers::ClangdToolchainQuery query;
  if (!options.cuda_path.empty()) query.cuda_path = options.cuda_path;
  for (const auto& dir : options.torch_include_path) query.torch_include_dirs.emplace_back(dir);
  for (const auto& dir : options.cutlass_path) query.cutlass_paths.emplace_back(dir);
  auto toolchain = analyzers::find_clangd_toolchain(query);
  if (!toolchain) {
    err << kPrefix << toolchain.error().describe() << "\n";
    return 2;
  }

  const fs::path project = toml_path.parent_path();
  const fs::path clangd_path = project / ".clangd";
  std::optional<std::string> existing_clangd;
  if (fs::exists(clangd_path, ec)) {
    existing_clangd = read_file_text(clangd_path);
    if (!existing_clangd) {
      err << kPrefix << clangd_path.string() << ": cannot be read\n";
      return 2;
    }
  }
  const DatabasePlan plan = plan_database(project, existing_clangd);
  const analyzers::ClangdCommands commands =
      analyzers::clangd_commands(*config, *toolchain, plan.user_database);
  const std::string database = compile_commands_text(commands, project);
  const std::string block = clangd_block_text(
      ClangdBlockInputs{plan.clangd_dir, analyzers::content_hash(database), plan.user_database_kept});
  auto clangd = merged_clangd(clangd_path, existing_clangd, block, options.force);

  if (options.print) {
    out << "==> " << plan.target.string() << " <==\n" << database;
    out << "==> " << clangd_path.string() << " <==\n" << (clangd ? *clangd : block);
    if (!clangd) err << kPrefix << clangd.error().describe() << "\n";
    return 0;
  }
  const bool had_block = existing_clangd && existing_clangd->find(kClangdBlockBegin) != std::string::npos;
  if (!clangd) {
    err << kPrefix << clangd.error().describe() << "\n";
    return 2;
  }
  report(project, toml_path, *toolchain, commands, plan, options.dry_run, had_block, out);
  if (options.dry_run) return 0;
  // The database first: the .clangd records its hash.
  if (!write(plan.target, database, err) || !write(clangd_path, *clangd, err)) return 2;
  return 0;
}

RegisteredCommand add_clangd_config_command(CLI::App& app) {
  auto options = std::make_shared<ClangdConfigOptions>();
  CLI::App* command = app.add_subcommand(
      "clangd-config",
      "Write .clangd and compile_commands.json so that clangd parses a kernel-builder project's CUDA 13 "
      "sources beside kernel-lsp");
  command->add_option("dir", options->dir, "A folder or file of the project (default: the current folder)");
  command->add_option("--cuda-path", options->cuda_path,
                      "CUDA toolkit folder (else CUDA_PATH, CUDA_HOME, nvcc on PATH, /usr/local/cuda)");
  command
      ->add_option("--torch-include-path", options->torch_include_path,
                   "PyTorch include folder (repeat the option for each); else found (Torch_DIR, python3's "
                   "torch) or kernel-lsp's stand-in")
      ->allow_extra_args(false);
  command
      ->add_option("--cutlass-path", options->cutlass_path,
                   "CUTLASS checkout or include folder (repeat the option for each); else CUTLASS_PATH, "
                   "CUTLASS_DIR, CUTLASS_HOME")
      ->allow_extra_args(false);
  command->add_flag("--force", options->force,
                    "Append kernel-lsp's block to a .clangd of yours that has none (your lines are kept)");
  command->add_flag("--print", options->print, "Print the two files instead of writing them");
  command->add_flag("--dry-run", options->dry_run, "Say what would be written, file by file; write nothing");
  return {command, [options] { return run_clangd_config(*options, std::cout, std::cerr); }};
}

}  // namespace kl::cli
