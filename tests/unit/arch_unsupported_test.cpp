// arch-unsupported against toolkits of known versions: what it says about a capability the
// toolkit cannot target comes from the arch table's history (archs.toml), so a message names the
// toolkits that do target it, and the new name of a renamed capability.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "analyzers/data/arch_table.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/project/build_config.h"
#include "analyzers/rules/rule_catalog.h"
#include "analyzers/rules/rule_input.h"

namespace {

using namespace kl::analyzers;

// nvcc --list-gpu-code of CUDA 13.0.88 and of CUDA 12.8.
const std::vector<int> kCuda130Sms = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
const std::vector<int> kCuda128Sms = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 120};

CudaToolkit toolkit(int major, int minor, std::vector<int> sms) {
  CudaToolkit t;
  t.root = "/usr/local/cuda-" + std::to_string(major) + "." + std::to_string(minor);
  t.version_major = major;
  t.version_minor = minor;
  t.supported_sms = std::move(sms);
  return t;
}

std::string build_toml(const std::string& capabilities) {
  return R"([general]
name = "caps"
version = 1
edition = 5
license = "apache-2.0"
backends = ["cuda"]

[torch]

[kernel.caps]
backend = "cuda"
depends = ["torch"]
src = ["caps/caps.cu"]
cuda-capabilities = )" +
         capabilities + "\n";
}

std::vector<Finding> findings(const std::string& capabilities, const CudaToolkit* cuda) {
  BuildConfigParse parsed = parse_build_toml("/project/build.toml", build_toml(capabilities));
  REQUIRE(parsed.problems.empty());
  const Rule* rule = find_rule("arch-unsupported");
  REQUIRE(rule);
  BuildTomlInput input;
  input.parse = &parsed;
  input.archs = &ArchTable::builtin();
  input.toolkit = cuda;
  std::vector<Finding> out;
  rule->build_toml_check(input, out);
  return out;
}

}  // namespace

TEST_CASE("10.1 with CUDA 13.0: targeted by CUDA 12.8-12.9, called 11.0 since 13.0") {
  const CudaToolkit cuda = toolkit(13, 0, kCuda130Sms);
  std::vector<Finding> found = findings(R"(["9.0", "10.1"])", &cuda);
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::Error);
  CHECK(found[0].message ==
        "the installed CUDA 13.0 (/usr/local/cuda-13.0) cannot target 10.1 (nvcc: Unsupported gpu "
        "architecture 'compute_101'); 10.1 was targeted by CUDA 12.8–12.9; CUDA 13.0 calls it 11.0. The "
        "builder skips it with this toolkit: list 11.0 for CUDA 13.0 and newer (and keep 10.1 for CUDA "
        "12.8–12.9).");
  CHECK(found[0].message.find("no GPU has it") == std::string::npos);
  CHECK(found[0].fixes.empty());  // 10.1 is still right for a CUDA 12.8 or 12.9 build
}

TEST_CASE("10.1 is a capability: no finding without a toolkit, nor with CUDA 12.8") {
  CHECK(findings(R"(["10.1", "10.1a", "10.1f"])", nullptr).empty());
  const CudaToolkit cuda = toolkit(12, 8, kCuda128Sms);
  CHECK(findings(R"(["10.1"])", &cuda).empty());
}

TEST_CASE("7.0 with CUDA 13.0: the last toolkit that targets it is 12.9") {
  const CudaToolkit cuda = toolkit(13, 0, kCuda130Sms);
  std::vector<Finding> found = findings(R"(["7.0", "8.0"])", &cuda);
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("cannot target 7.0 (nvcc: Unsupported gpu architecture 'compute_70'); 7.0 was "
                              "targeted by CUDA 12.9 and older. The builder skips it") != std::string::npos);
  CHECK(found[0].message.find("build with an older toolkit") != std::string::npos);
}

TEST_CASE("11.0 with CUDA 12.8: CUDA 13.0 and newer target it; 12.8-12.9 call it 10.1") {
  const CudaToolkit cuda = toolkit(12, 8, kCuda128Sms);
  std::vector<Finding> found = findings(R"(["11.0", "12.1", "9.0"])", &cuda);
  REQUIRE(found.size() == 2);
  CHECK(found[0].message.find("cannot target 11.0 (nvcc: Unsupported gpu architecture 'compute_110'); CUDA "
                              "13.0 and newer target it (CUDA 12.8–12.9 call it 10.1)") != std::string::npos);
  CHECK(found[1].message.find("cannot target 12.1") != std::string::npos);
  CHECK(found[1].message.find("CUDA 12.9 and newer target it. The builder skips it") != std::string::npos);
  CHECK(found[1].message.find("build with a newer toolkit") != std::string::npos);
}

TEST_CASE("capabilities no GPU has, and variants that do not exist, whatever the toolkit") {
  std::vector<Finding> found = findings(R"(["11.8", "8.0a", "9.0f", "10.2"])", nullptr);
  REQUIRE(found.size() == 4);
  CHECK(found[0].message == "unknown compute capability 11.8: no GPU has it. Did you mean 12.0?");
  CHECK(found[1].message ==
        "\"8.0a\" does not exist: arch-specific ('a') targets start at 9.0 and family ('f') targets at "
        "10.0. Use \"8.0\".");
  CHECK(found[2].message.rfind("\"9.0f\" does not exist", 0) == 0);
  // 10.1 is as close, but renamed: the suggestion is a name toolkits still use.
  CHECK(found[3].message == "unknown compute capability 10.2: no GPU has it. Did you mean 10.3?");
  for (const Finding& f : found) CHECK(f.fixes.size() == 1);
}

TEST_CASE("Kepler is a GPU: 3.5 with CUDA 13.0 was targeted by CUDA 11.8 and older") {
  const CudaToolkit cuda = toolkit(13, 0, kCuda130Sms);
  std::vector<Finding> found = findings(R"(["3.5", "9.0"])", &cuda);
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("3.5 was targeted by CUDA 11.8 and older") != std::string::npos);
}

TEST_CASE("a kernel with nothing the toolkit can build: the builder's fatal error") {
  const CudaToolkit cuda = toolkit(13, 0, kCuda130Sms);
  std::vector<Finding> found = findings(R"(["7.0", "10.1"])", &cuda);
  REQUIRE(found.size() == 3);
  CHECK(found[2].message.find("empty set of capabilities after intersection") != std::string::npos);
}
