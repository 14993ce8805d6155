// `kernel-lsp clangd-config`: the clang command each file of a kernel-builder project gets
// (analyzers/frontend/clangd_commands), the .clangd block and what happens to a user's own files
// (cli/clangd_config_files), and the command's answers to bad input (cli/clangd_config_command).
// Whether clangd itself parses the result cleanly is tests/clangd (real clangd-19).
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzers/frontend/clangd_commands.h"
#include "cli/clangd_config_command.h"
#include "cli/clangd_config_files.h"
#include "support/fs_paths.h"

namespace fs = std::filesystem;
using namespace kl::analyzers;
using kl::cli::ClangdBlockInputs;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::trunc) << text;
}

std::string read(const fs::path& path) { return kl::read_file_text(path).value_or("<missing>"); }

bool has(const std::vector<std::string>& argv, const std::string& arg) {
  return std::find(argv.begin(), argv.end(), arg) != argv.end();
}

// `first` directly followed by `second` somewhere in argv.
bool has_pair(const std::vector<std::string>& argv, const std::string& first, const std::string& second) {
  for (size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == first && argv[i + 1] == second) return true;
  return false;
}

ptrdiff_t position(const std::vector<std::string>& argv, const std::string& arg) {
  auto it = std::find(argv.begin(), argv.end(), arg);
  return it == argv.end() ? -1 : it - argv.begin();
}

constexpr const char* kBuildToml = R"(
[general]
name = "demo-kernels"
version = 1
edition = 5
license = "Apache-2.0"
backends = ["cuda"]

[torch]
src = ["torch-ext/torch_binding.cpp", "torch-ext/torch_binding.h"]
include = ["torch-ext"]

[kernel.older]
backend = "cuda"
depends = ["torch"]
cuda-capabilities = ["8.0", "9.0a", "8.9"]
cuda-flags = ["-O3", "--use_fast_math", "-DOLDER=1", "-gencode=arch=compute_80,code=sm_80",
              "-Xcompiler", "-fopenmp,-DHOSTDEF", "-std=c++20"]
src = ["older/a.cu", "older/a.h"]
include = ["common"]

[kernel.newer]
backend = "cuda"
depends = []
cuda-capabilities = ["8.0", "10.0"]
src = ["newer/b.cu"]
)";

// A project with two CUDA kernels, a header one of them includes, a header nobody includes, the
// torch-ext binding, and files in folders clangd-config leaves out.
struct DemoProject {
  fs::path dir = fs::temp_directory_path() / ("kl_clangd_config_test_" + std::to_string(::getpid()));
  DemoProject() {
    fs::remove_all(dir);
    write(dir / "build.toml", kBuildToml);
    write(dir / "older/a.cu", "#include \"a.h\"\n__global__ void a() {}\n");
    write(dir / "older/a.h", "#pragma once\n");
    write(dir / "newer/b.cu", "#include \"../shared/s.cuh\"\n__global__ void b() {}\n");
    write(dir / "shared/s.cuh", "#pragma once\n");
    write(dir / "shared/plain.h", "#pragma once\n");
    write(dir / "common/.keep", "");
    write(dir / "torch-ext/torch_binding.cpp", "#include \"torch_binding.h\"\n");
    write(dir / "torch-ext/torch_binding.h", "#pragma once\n");
    write(dir / "build/generated.cu", "");
    write(dir / ".cache/clangd/x.cu", "");
  }
  ~DemoProject() { fs::remove_all(dir); }

  BuildConfig config() const {
    BuildConfigParse parsed = parse_build_toml(dir / "build.toml", kBuildToml);
    REQUIRE(parsed.config);
    return *parsed.config;
  }
};

ClangdToolchain fake_toolchain() {
  ClangdToolchain toolchain;
  toolchain.toolkit.root = "/opt/cuda-test";
  toolchain.toolkit.version_major = 13;
  toolchain.toolkit.version_minor = 0;
  toolchain.toolkit.supported_sms = {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121};
  toolchain.shim_dir = "/kl/shims";
  toolchain.torch_standin_dir = "/kl/standin";
  toolchain.registration_dir = "/kl/common";
  toolchain.python_include_dir = "/usr/include/python3.11";
  return toolchain;
}

const ClangdEntry* entry_of(const ClangdCommands& commands, const fs::path& file) {
  for (const ClangdEntry& entry : commands.entries)
    if (entry.file == file) return &entry;
  return nullptr;
}

}  // namespace

TEST_CASE("clangd_commands: one entry per C, C++ and CUDA file, outside build outputs and hidden folders") {
  DemoProject project;
  ClangdCommands commands = clangd_commands(project.config(), fake_toolchain(), std::nullopt);
  std::vector<std::string> files;
  for (const ClangdEntry& entry : commands.entries)
    files.push_back(entry.file.lexically_relative(project.dir).string());
  CHECK(files == std::vector<std::string>{"newer/b.cu", "older/a.cu", "older/a.h", "shared/plain.h",
                                          "shared/s.cuh", "torch-ext/torch_binding.cpp",
                                          "torch-ext/torch_binding.h"});
  for (const ClangdEntry& entry : commands.entries) {
    CHECK(entry.arguments.front() == "clang++");
    CHECK(entry.arguments[entry.arguments.size() - 2] == "-c");
    CHECK(entry.arguments.back() == entry.file.string());
  }
}

TEST_CASE("clangd_commands: a kernel's .cu on the device side for its most capable capability") {
  DemoProject project;
  ClangdCommands commands = clangd_commands(project.config(), fake_toolchain(), std::nullopt);
  const ClangdEntry* a = entry_of(commands, project.dir / "older/a.cu");
  REQUIRE(a);
  const auto& argv = a->arguments;
  CHECK(a->cuda);
  CHECK(has_pair(argv, "-x", "cuda"));
  CHECK(has(argv, "--cuda-device-only"));
  CHECK(has(argv, "--cuda-gpu-arch=sm_90a"));  // 9.0a over 8.9 and 8.0
  CHECK(has(argv, "-D__CUDA_ARCH_FEAT_SM90_ALL=1"));
  CHECK(has(argv, "--cuda-path=/opt/cuda-test"));
  CHECK(has(argv, "-nocudalib"));
  CHECK(has(argv, "--no-cuda-version-check"));
  // The shims for what CUDA 13 removed, and nvcc's macros.
  CHECK(has_pair(argv, "-isystem", "/kl/shims"));
  CHECK(has_pair(argv, "-include", "kernel_lsp_launch_shim.h"));
  CHECK(has(argv, "-D__NVCC__=1"));
  CHECK(has(argv, "-D__CUDACC_VER_MAJOR__=13"));
  // kernel-builder's defines, and what torch's CMake adds for a section that depends on torch.
  CHECK(has(argv, "-DUSE_CUDA=1"));
  CHECK(has(argv, "-DCUDA_KERNEL"));
  CHECK(has(argv, "-D__CUDACC_RELAXED_CONSTEXPR__"));
  CHECK(has(argv, "-D__CUDACC_EXTENDED_LAMBDA__"));
  // cuda-flags: what changes parsing is kept, nvcc's code generation is dropped.
  CHECK(has_pair(argv, "-D", "OLDER=1"));
  CHECK(has_pair(argv, "-D", "HOSTDEF"));
  CHECK(position(argv, "-std=c++20") > position(argv, "-std=c++17"));
  for (const std::string& arg : argv) {
    CHECK(arg.find("gencode") == std::string::npos);
    CHECK(arg != "--use_fast_math");
    CHECK(arg != "-O3");
    CHECK(arg != "-fopenmp");
  }
  // Include folders, then torch's headers (the stand-in: none were found).
  CHECK(has(argv, "-I" + (project.dir / "common").string()));
  CHECK(has_pair(argv, "-isystem", "/kl/standin"));
  CHECK(a->origin == "[kernel.older] 9.0a");
}

TEST_CASE("clangd_commands: a capability clang 19 does not know is parsed as sm_90 with nvcc's macros") {
  DemoProject project;
  ClangdCommands commands = clangd_commands(project.config(), fake_toolchain(), std::nullopt);
  const ClangdEntry* b = entry_of(commands, project.dir / "newer/b.cu");
  REQUIRE(b);
  CHECK(has(b->arguments, "--cuda-gpu-arch=sm_90"));
  CHECK(has(b->arguments, "-U__CUDA_ARCH__"));
  CHECK(has(b->arguments, "-D__CUDA_ARCH__=1000"));
  // Another kernel's flags and includes stay with that kernel.
  CHECK_FALSE(has_pair(b->arguments, "-D", "OLDER=1"));
  CHECK_FALSE(has(b->arguments, "-I" + (project.dir / "common").string()));
  CHECK_FALSE(has(b->arguments, "-D__CUDACC_EXTENDED_LAMBDA__"));
}

TEST_CASE("clangd_commands: headers get the command of the sources that include them, else the host's") {
  DemoProject project;
  ClangdCommands commands = clangd_commands(project.config(), fake_toolchain(), std::nullopt);
  const ClangdEntry* included = entry_of(commands, project.dir / "shared/s.cuh");
  REQUIRE(included);
  CHECK(included->cuda);
  CHECK(has(included->arguments, "-D__CUDA_ARCH__=1000"));  // newer's, whose b.cu includes it
  CHECK(included->origin == "[kernel.newer] 10.0, as the .cu files that include it");
  const ClangdEntry* listed = entry_of(commands, project.dir / "older/a.h");
  REQUIRE(listed);
  CHECK(has(listed->arguments, "--cuda-gpu-arch=sm_90a"));
  const ClangdEntry* stray = entry_of(commands, project.dir / "shared/plain.h");
  REQUIRE(stray);
  CHECK_FALSE(stray->cuda);
  CHECK_FALSE(has(stray->arguments, "--cuda-device-only"));
}

TEST_CASE("clangd_commands: the torch-ext binding on the host side, with the registration.h stand-in last") {
  DemoProject project;
  ClangdCommands commands = clangd_commands(project.config(), fake_toolchain(), std::nullopt);
  for (const char* file : {"torch-ext/torch_binding.cpp", "torch-ext/torch_binding.h"}) {
    const ClangdEntry* binding = entry_of(commands, project.dir / file);
    REQUIRE(binding);
    const auto& argv = binding->arguments;
    CHECK_FALSE(binding->cuda);
    CHECK_FALSE(has(argv, "-x"));
    CHECK(has_pair(argv, "-isystem", "/opt/cuda-test/include"));
    CHECK(has(argv, "-DTORCH_EXTENSION_NAME=_demo_kernels_cuda"));
    CHECK(has(argv, "-DCUDA_KERNEL"));
    CHECK(has(argv, "-I" + (project.dir / "torch-ext").string()));
    CHECK(has_pair(argv, "-isystem", "/kl/standin"));
    CHECK(position(argv, "-idirafter") > position(argv, "-I" + (project.dir / "torch-ext").string()));
    CHECK(has_pair(argv, "-idirafter", "/kl/common"));
    CHECK(has_pair(argv, "-isystem", "/usr/include/python3.11"));
  }
}

TEST_CASE("clangd_commands: real torch headers replace the stand-in; the user's database joins its flags") {
  DemoProject project;
  ClangdToolchain toolchain = fake_toolchain();
  toolchain.torch.include_dirs = {"/torch/include", "/torch/include/torch/csrc/api/include"};
  toolchain.torch.found_by = "Torch_DIR";
  write(
      project.dir / "build/compile_commands.json",
      R"([{"directory": ")" + project.dir.string() +
          R"(", "file": "older/a.cu", "command": "nvcc -DFROM_USER_BUILD -D__CUDA_ARCH__=800 -gencode=arch=compute_80,code=sm_80 -c older/a.cu"}])");
  ClangdCommands commands =
      clangd_commands(project.config(), toolchain, project.dir / "build/compile_commands.json");
  const ClangdEntry* a = entry_of(commands, project.dir / "older/a.cu");
  REQUIRE(a);
  CHECK(has_pair(a->arguments, "-isystem", "/torch/include"));
  CHECK_FALSE(has_pair(a->arguments, "-isystem", "/kl/standin"));
  CHECK(has_pair(a->arguments, "-D", "FROM_USER_BUILD"));
  // The arch macros are the command's own (nvcc never passes them; kernel-lsp's parses set theirs).
  CHECK_FALSE(has_pair(a->arguments, "-D", "__CUDA_ARCH__=800"));
  CHECK(std::any_of(commands.notes.begin(), commands.notes.end(),
                    [](const std::string& n) { return n.find("Torch_DIR") != std::string::npos; }));
}

TEST_CASE("clangd_commands: notes say what clangd will miss") {
  DemoProject project;
  ClangdToolchain toolchain = fake_toolchain();
  toolchain.python_include_dir.clear();
  ClangdCommands commands = clangd_commands(project.config(), toolchain, std::nullopt);
  auto noted = [&](const char* words) {
    return std::any_of(commands.notes.begin(), commands.notes.end(),
                       [&](const std::string& n) { return n.find(words) != std::string::npos; });
  };
  CHECK(noted("no PyTorch headers found"));
  CHECK(noted("<Python.h>"));
}

TEST_CASE("clang_flags_for: build.toml's cuda-flags for clang") {
  std::vector<std::string> flags =
      clang_flags_for({"--expt-relaxed-constexpr", "--extended-lambda", "-O3", "--use_fast_math", "-Iinc",
                       "--threads", "4", "-DX=1", "-lineinfo"},
                      "/p");
  CHECK(flags == std::vector<std::string>{"-I", "/p/inc", "-D", "X=1", "-D__CUDACC_RELAXED_CONSTEXPR__",
                                          "-D__CUDACC_EXTENDED_LAMBDA__"});
}

TEST_CASE("clangd block: valid YAML that names the database, with its hash recorded") {
  std::string block = kl::cli::clangd_block_text(ClangdBlockInputs{".cache/kernel-lsp", "0123abcd", true});
  CHECK(block.rfind(kl::cli::kClangdBlockBegin, 0) == 0);
  CHECK(block.find(kl::cli::kClangdBlockEnd) != std::string::npos);
  std::vector<YAML::Node> documents = YAML::LoadAll(block);
  REQUIRE(documents.size() == 1);
  CHECK(documents[0]["CompileFlags"]["CompilationDatabase"].as<std::string>() == ".cache/kernel-lsp");
  CHECK(kl::cli::recorded_database_hash(block) == "0123abcd");
  CHECK(kl::cli::recorded_database_hash("CompileFlags:\n  Add: [-DX]\n").empty());
}

TEST_CASE("merged .clangd: kernel-lsp's block is replaced, a user's file is changed only with --force") {
  const fs::path path = "/p/.clangd";
  const std::string block = kl::cli::clangd_block_text(ClangdBlockInputs{".", "new", false});
  SECTION("no file: the block") { CHECK(*kl::cli::merged_clangd(path, std::nullopt, block, false) == block); }
  SECTION("the block replaced; the user's lines before and after kept, each in its own document") {
    const std::string before = "Index:\n  Background: Skip\n";
    const std::string old_block = kl::cli::clangd_block_text(ClangdBlockInputs{".", "old", false});
    const std::string after = "# mine\nInlayHints:\n  Enabled: No\n";
    auto merged = kl::cli::merged_clangd(path, before + old_block + after, block, false);
    REQUIRE(merged);
    CHECK(*merged == before + block + "---\n" + after);
    CHECK(kl::cli::recorded_database_hash(*merged) == "new");
    CHECK(YAML::LoadAll(*merged).size() == 3);
  }
  SECTION("a user's .clangd without the block: refused, then appended to with --force") {
    const std::string user = "CompileFlags:\n  Add: [-DMINE]";
    auto refused = kl::cli::merged_clangd(path, user, block, false);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().describe().find("--force") != std::string::npos);
    CHECK(refused.error().describe().find("/p/.clangd") != std::string::npos);
    auto forced = kl::cli::merged_clangd(path, user, block, true);
    REQUIRE(forced);
    CHECK(*forced == user + "\n" + block);
    std::vector<YAML::Node> documents = YAML::LoadAll(*forced);
    REQUIRE(documents.size() == 2);
    CHECK(documents[0]["CompileFlags"]["Add"][0].as<std::string>() == "-DMINE");
  }
  SECTION("half a block: an error at the marker's line") {
    const std::string broken =
        "Index:\n  Background: Skip\n" + std::string(kl::cli::kClangdBlockBegin) + "\n";
    auto refused = kl::cli::merged_clangd(path, broken, block, true);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().describe().rfind("/p/.clangd:3:1: ", 0) == 0);
  }
}

namespace {

struct CommandRun {
  int code;
  std::string out;
  std::string err;
};

CommandRun run(kl::cli::ClangdConfigOptions options) {
  std::ostringstream out, err;
  int code = kl::cli::run_clangd_config(options, out, err);
  return {code, out.str(), err.str()};
}

kl::cli::ClangdConfigOptions options_for(const fs::path& dir) {
  kl::cli::ClangdConfigOptions options;
  options.dir = dir.string();
  return options;
}

bool toolkit_installed() { return find_cuda_toolkit(std::nullopt).ok(); }

}  // namespace

TEST_CASE("clangd-config: bad input is exit 2 with a message that says where") {
  DemoProject project;
  SECTION("no build.toml at or above the folder") {
    fs::path lonely = fs::temp_directory_path() / ("kl_clangd_config_lonely_" + std::to_string(::getpid()));
    fs::create_directories(lonely);
    CommandRun result = run(options_for(lonely));
    fs::remove_all(lonely);
    CHECK(result.code == 2);
    CHECK(result.err.find("no build.toml in " + lonely.string()) != std::string::npos);
  }
  SECTION("a folder that does not exist") {
    CommandRun result = run(options_for(project.dir / "nowhere"));
    CHECK(result.code == 2);
    CHECK(result.err.find("nowhere: no such folder") != std::string::npos);
  }
  SECTION("a build.toml that does not parse: its errors with line and column") {
    write(project.dir / "build.toml", "[general]\nname = \"x\"\nversion = [\n");
    CommandRun result = run(options_for(project.dir / "older"));
    CHECK(result.code == 2);
    CHECK(result.err.find((project.dir / "build.toml").string() + ":") != std::string::npos);
    CHECK(result.err.find(": error: ") != std::string::npos);
    CHECK_FALSE(fs::exists(project.dir / ".clangd"));
  }
  SECTION("no CUDA kernel") {
    write(project.dir / "build.toml",
          "[general]\nname = \"xy\"\nversion = 1\nedition = 5\nlicense = \"MIT\"\nbackends = [\"cpu\"]\n\n"
          "[torch]\nsrc = []\n\n[kernel.x]\nbackend = \"cpu\"\ndepends = []\nsrc = [\"x.cpp\"]\n");
    CommandRun result = run(options_for(project.dir));
    CHECK(result.code == 2);
    CHECK(result.err.find("build.toml:1:1: error: no [kernel.*] section with backend = \"cuda\"") !=
          std::string::npos);
  }
  SECTION("no CUDA toolkit where --cuda-path points") {
    kl::cli::ClangdConfigOptions options = options_for(project.dir);
    options.cuda_path = (project.dir / "no-cuda-here").string();
    CommandRun result = run(options);
    CHECK(result.code == 2);
    CHECK(result.err.find("--cuda-path") != std::string::npos);
    CHECK_FALSE(fs::exists(project.dir / "compile_commands.json"));
  }
}

TEST_CASE("clangd-config: writes both files, rewrites its own, never overwrites the user's") {
  if (!toolkit_installed()) {
    WARN("skipped: no CUDA toolkit");
    return;
  }
  DemoProject project;
  const fs::path database = project.dir / "compile_commands.json";
  const fs::path clangd = project.dir / ".clangd";

  CommandRun first = run(options_for(project.dir / "older" / "a.cu"));  // from a file inside the project
  REQUIRE(first.code == 0);
  CHECK(first.out.find("7 files (4 CUDA on the device side, 3 host C++)") != std::string::npos);
  REQUIRE(fs::exists(database));
  CHECK(kl::cli::recorded_database_hash(read(clangd)) != "");

  SECTION("run again: its own files are rewritten in place, the user's lines in .clangd kept") {
    write(clangd, read(clangd) + "---\nIndex:\n  Background: Skip\n");
    CommandRun again = run(options_for(project.dir));
    REQUIRE(again.code == 0);
    CHECK(read(clangd).find("Background: Skip") != std::string::npos);
    CHECK(read(clangd).find("CompilationDatabase: .\n") != std::string::npos);
    CHECK_FALSE(fs::exists(project.dir / ".cache/kernel-lsp/compile_commands.json"));
  }
  SECTION("its own compile_commands.json is still known when the .clangd is gone") {
    fs::remove(clangd);
    REQUIRE(run(options_for(project.dir)).code == 0);
    CHECK(read(clangd).find("CompilationDatabase: .\n") != std::string::npos);
    CHECK_FALSE(fs::exists(project.dir / ".cache/kernel-lsp/compile_commands.json"));
  }
  SECTION("a compile_commands.json of the user's build is kept, and kernel-lsp's goes beside it") {
    const std::string users =
        R"([{"directory": "/x", "file": "older/a.cu", "command": "nvcc -DMINE -c older/a.cu"}])";
    write(database, users);
    CommandRun again = run(options_for(project.dir));
    REQUIRE(again.code == 0);
    CHECK(read(database) == users);
    CHECK(fs::exists(project.dir / ".cache/kernel-lsp/compile_commands.json"));
    CHECK(read(clangd).find("CompilationDatabase: .cache/kernel-lsp") != std::string::npos);
    CHECK(again.out.find("kept compile_commands.json") != std::string::npos);
  }
  SECTION(
      "a .clangd of the user's: refused and untouched; --force appends, --print and --dry-run write "
      "nothing") {
    const std::string users = "CompileFlags:\n  Add: [-DMINE]\n";
    write(clangd, users);
    CommandRun refused = run(options_for(project.dir));
    CHECK(refused.code == 2);
    CHECK(refused.err.find("--force") != std::string::npos);
    CHECK(read(clangd) == users);
    kl::cli::ClangdConfigOptions look = options_for(project.dir);
    look.print = true;
    CommandRun printed = run(look);
    CHECK(printed.code == 0);
    CHECK(printed.out.find("==> " + clangd.string() + " <==") != std::string::npos);
    look.print = false;
    look.dry_run = true;
    look.force = true;
    CommandRun dry = run(look);
    CHECK(dry.code == 0);
    CHECK(dry.out.find("older/a.cu  [kernel.older] 9.0a") != std::string::npos);
    CHECK(read(clangd) == users);
    kl::cli::ClangdConfigOptions force = options_for(project.dir);
    force.force = true;
    CHECK(run(force).code == 0);
    CHECK(read(clangd).rfind(users, 0) == 0);
    CHECK(read(clangd).find(kl::cli::kClangdBlockBegin) != std::string::npos);
  }
}
