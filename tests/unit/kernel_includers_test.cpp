// kernel_includers and the project_locator questions built on it (kernels_building,
// include_dirs_of, capabilities_for_source), read as a specification of which build.toml kernels
// compile a file and with which include folders, on a small kernel project written to a
// temporary folder.
#include "analyzers/project/kernel_includers.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "analyzers/project/project_locator.h"

namespace {

using namespace kl::analyzers;
namespace fs = std::filesystem;

// Two CUDA kernels and a ROCm one. common/only90.cuh is listed by sm80 but included only from
// sm90's sources; shared/deep.cuh is reached by both (sm80 through util.cuh, sm90 with an angled
// include through its include folder "."); sm90/inst.cu is a .cu that no kernel lists, included
// by sm90/attn.cu; outside.cuh lies above the project and is never read.
constexpr const char* kBuildToml = R"([general]
name = "attn"
version = 1
edition = 5
license = "mit"
backends = ["cuda", "rocm"]

[torch]
src = []

[kernel.sm80]
backend = "cuda"
depends = ["torch"]
src = ["sm80/attn.cu", "common/util.cuh", "common/only90.cuh"]
include = ["common", "inc/"]
cuda-capabilities = ["8.0"]

[kernel.sm90]
backend = "cuda"
depends = ["torch"]
src = ["sm90/attn.cu", "sm90/listed_only.cuh", "sm90/missing.cu"]
include = ["."]
cuda-capabilities = ["9.0a"]

[kernel.rocm]
backend = "rocm"
depends = ["torch"]
src = ["rocm/attn.cu"]
include = ["rocm_inc"]
)";

class KernelProject {
 public:
  KernelProject() {
    std::random_device device;
    top_ = fs::temp_directory_path() / ("kl-includers-" + std::to_string(device()));
    root_ = top_ / "proj";
    write("build.toml", kBuildToml);
    write("sm80/attn.cu",
          "#include <cuda_runtime.h>\n#include \"util.cuh\"\n#include \"../../outside.cuh\"\n");
    write("common/util.cuh", "#pragma once\n#include \"../shared/deep.cuh\"\n");
    write("common/only90.cuh", "#pragma once\n");
    write("shared/deep.cuh", "#pragma once\n#include \"deep.cuh\"\n");  // includes itself
    write("sm90/attn.cu", "#include \"sm90/impl.cuh\"\n#include <shared/deep.cuh>\n#include \"inst.cu\"\n");
    write("sm90/impl.cuh", "#include \"../common/only90.cuh\"\n");
    write("sm90/inst.cu", "\n");
    write("sm90/listed_only.cuh", "\n");
    write("stray.cuh", "\n");
    write("common/reached_from_outside.cuh", "\n");
    write("rocm/attn.cu", "#include \"../stray.cuh\"\n");
    write("../outside.cuh", "#include \"proj/common/reached_from_outside.cuh\"\n");
    BuildConfigParse parsed = parse_build_toml(root_ / "build.toml", kBuildToml);
    REQUIRE(parsed.config);
    config_ = *parsed.config;
  }
  ~KernelProject() {
    std::error_code ignored;
    fs::remove_all(top_, ignored);
  }
  const BuildConfig& config() const { return config_; }
  fs::path path(const std::string& relative) const { return root_ / relative; }

 private:
  void write(const std::string& relative, const std::string& text) {
    const fs::path path = (root_ / relative).lexically_normal();
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  fs::path top_;
  fs::path root_;
  BuildConfig config_;
};

std::vector<std::string> kernel_names(const std::vector<const KernelSection*>& kernels) {
  std::vector<std::string> out;
  for (const KernelSection* kernel : kernels) out.push_back(kernel->name);
  return out;
}

std::vector<std::string> entry_texts(const SourceCapabilities& caps) {
  std::vector<std::string> out;
  for (const CapabilityEntry& e : caps.entries) out.push_back(e.text);
  return out;
}

}  // namespace

TEST_CASE("kernel_cu_sources: the .cu files a kernel's src lists that exist") {
  KernelProject project;
  const auto sources = kernel_cu_sources(project.config(), project.config().kernels[1]);
  REQUIRE(sources.size() == 1);  // not the header, not the missing .cu
  CHECK(sources[0] == project.path("sm90/attn.cu"));
}

TEST_CASE("kernel_include_dirs: each entry under the build.toml's folder, as kernel-builder passes it") {
  KernelProject project;
  CHECK(kernel_include_dirs(project.config(), project.config().kernels[0]) ==
        std::vector<fs::path>{project.path("common"), project.path("inc")});
  CHECK(kernel_include_dirs(project.config(), project.config().kernels[1]) ==
        std::vector<fs::path>{project.config().project_dir()});
}

TEST_CASE("cuda_kernels_including: through quoted, angled and transitive includes") {
  KernelProject project;
  auto including = [&](const char* file) {
    return kernel_names(cuda_kernels_including(project.config(), project.path(file)));
  };
  using Names = std::vector<std::string>;
  CHECK(including("common/util.cuh") == Names{"sm80"});    // found through include = ["common"]
  CHECK(including("common/only90.cuh") == Names{"sm90"});  // listed by sm80, included by sm90
  CHECK(including("shared/deep.cuh") == Names{"sm80", "sm90"});
  CHECK(including("sm90/inst.cu") == Names{"sm90"});
  CHECK(including("sm90/impl.cuh") == Names{"sm90"});
  CHECK(including("sm90/listed_only.cuh").empty());
  CHECK(including("stray.cuh").empty());                        // only the ROCm kernel includes it
  CHECK(including("common/reached_from_outside.cuh").empty());  // outside.cuh is not read
  // The same file through another spelling of its path, and through a symbolic link.
  CHECK(kernel_names(cuda_kernels_including(project.config(), project.path("sm90/../common/./only90.cuh"))) ==
        Names{"sm90"});
  std::error_code error;
  fs::create_directory_symlink(project.path("common"), project.path("linked"), error);
  if (!error)
    CHECK(kernel_names(cuda_kernels_including(project.config(), project.path("linked/only90.cuh"))) ==
          Names{"sm90"});
}

TEST_CASE("kernels_building: listed .cu sources, then includers, then listing, then every CUDA kernel") {
  KernelProject project;
  auto building = [&](const char* file) { return kernels_building(project.config(), project.path(file)); };
  using Names = std::vector<std::string>;

  KernelsBuilding source = building("sm80/attn.cu");
  CHECK(source.match == KernelMatch::Listed);
  CHECK(kernel_names(source.kernels) == Names{"sm80"});

  KernelsBuilding header = building("common/only90.cuh");
  CHECK(header.match == KernelMatch::IncludedBy);
  CHECK(kernel_names(header.kernels) == Names{"sm90"});

  KernelsBuilding listed_only = building("sm90/listed_only.cuh");
  CHECK(listed_only.match == KernelMatch::Listed);
  CHECK(kernel_names(listed_only.kernels) == Names{"sm90"});

  KernelsBuilding stray = building("stray.cuh");
  CHECK(stray.match == KernelMatch::AllCudaKernels);
  CHECK(kernel_names(stray.kernels) == Names{"sm80", "sm90"});

  KernelsBuilding included_cu = building("sm90/inst.cu");
  CHECK(included_cu.match == KernelMatch::IncludedBy);
  CHECK(kernel_names(included_cu.kernels) == Names{"sm90"});
}

TEST_CASE("include_dirs_of: the include folders of the kernels that compile the file, once each") {
  KernelProject project;
  const BuildConfig& config = project.config();
  CHECK(include_dirs_of(config, kernels_building(config, project.path("sm80/attn.cu"))) ==
        std::vector<fs::path>{project.path("common"), project.path("inc")});
  CHECK(include_dirs_of(config, kernels_building(config, project.path("common/only90.cuh"))) ==
        std::vector<fs::path>{config.project_dir()});
  // Neither listed nor included: the union over the CUDA kernels (never the ROCm kernel's).
  CHECK(include_dirs_of(config, kernels_building(config, project.path("stray.cuh"))) ==
        std::vector<fs::path>{project.path("common"), project.path("inc"), config.project_dir()});
}

TEST_CASE("capabilities_for_source: a header gets the capabilities of the kernels that include it") {
  KernelProject project;
  SourceCapabilities caps =
      capabilities_for_source(project.config(), project.path("common/only90.cuh"), 13, 0);
  CHECK(entry_texts(caps) == std::vector<std::string>{"9.0a"});
  CHECK(caps.origin == "build.toml [kernel.sm90] cuda-capabilities (its sources include this file)");

  SourceCapabilities both = capabilities_for_source(project.config(), project.path("shared/deep.cuh"), 13, 0);
  CHECK(entry_texts(both) == std::vector<std::string>{"8.0", "9.0a"});
  CHECK(both.origin ==
        "build.toml [kernel.sm80] cuda-capabilities, [kernel.sm90] cuda-capabilities (their "
        "sources include this file)");

  // A .cu source keeps its own kernel's list, without the note.
  SourceCapabilities source = capabilities_for_source(project.config(), project.path("sm80/attn.cu"), 13, 0);
  CHECK(entry_texts(source) == std::vector<std::string>{"8.0"});
  CHECK(source.origin == "build.toml [kernel.sm80] cuda-capabilities");
}
