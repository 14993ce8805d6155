#include <catch2/catch.hpp>

#include "runner/resource_usage.h"

TEST_CASE("ptxas' verbose report becomes per-kernel resource figures") {
  const char* report =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z6kernelPf' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z6kernelPf\n"
      "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem, 360 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z5otherv' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z5otherv\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers, 352 bytes cmem[0]\n";
  auto kernels = kl::runner::parse_ptxas_report(report);
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].mangled_name == "_Z6kernelPf");
  CHECK(kernels[0].target == "sm_90");
  CHECK(kernels[0].registers == 40);
  CHECK(kernels[0].shared_bytes == 4096);
  CHECK(kernels[0].stack_frame_bytes == 16);
  CHECK(kernels[0].spill_store_bytes == 8);
  CHECK(kernels[0].spill_load_bytes == 4);
  CHECK(kernels[0].barriers == 1);
  CHECK(kernels[1].target == "sm_90a");
  CHECK(kernels[1].shared_bytes == 0);
}
