#include <catch2/catch.hpp>

#include <filesystem>

#include "analyzers/frontend/cuda_toolkit.h"

using namespace kl::analyzers;

TEST_CASE("nvcc's version and target list are read from its output") {
  int major = 0, minor = 0;
  CHECK(parse_nvcc_version("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\n",
                           major, minor));
  CHECK(major == 13);
  CHECK(minor == 0);
  auto sms = parse_gpu_code_list("sm_75\nsm_80\nsm_90\nsm_100\nsm_90\n");
  CHECK(sms == std::vector<int>{75, 80, 90, 100});
}

TEST_CASE("an explicit toolkit path that is not a toolkit is an error naming it") {
  auto found = find_cuda_toolkit(std::filesystem::path("/nonexistent/cuda"));
  REQUIRE_FALSE(found);
  CHECK(found.error().message.find("/nonexistent/cuda") != std::string::npos);
}

TEST_CASE("the installed toolkit is found and knows what it can target") {
  auto found = find_cuda_toolkit(std::nullopt);
  if (!found) {
    WARN("SKIPPED: no CUDA toolkit on this machine: " << found.error().message);
    return;
  }
  CHECK(found->version_major >= 11);
  if (found->version_major >= 13 && !found->supported_sms.empty()) {
    CHECK(found->can_target(*parse_capability("9.0a")));
    CHECK_FALSE(found->can_target(*parse_capability("7.0")));
  }
}
