#include <catch2/catch.hpp>

#include "analyzers/data/arch_table.h"
#include "analyzers/data/feature_table.h"

using namespace kl::analyzers;

TEST_CASE("the built-in tables load and cover cuda-archs.md") {
  const ArchTable& archs = ArchTable::builtin();
  for (const char* cap : {"7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}) {
    INFO(cap);
    CHECK(archs.find(*parse_capability(cap)) != nullptr);
  }
  CHECK(archs.find(*parse_capability("9.0a"))->max_dynamic_smem_per_block == 232448);
  CHECK(archs.find(*parse_capability("7.5"))->max_dynamic_smem_per_block == 65536);
  CHECK(archs.find(*parse_capability("9.5")) == nullptr);

  const FeatureTable& features = FeatureTable::builtin();
  for (const char* id : {"__reduce_*_sync", "cp.async", "mbarrier", "ldmatrix", "wgmma", "setmaxnreg", "tcgen05",
                         "cp.async.bulk", "elect.sync", "cvt fp8", "__cluster_dims__", "thread-block clusters",
                         "mma.sync m16n8k16", "wmma bf16/tf32", "fence acq_rel"}) {
    INFO(id);
    CHECK(features.find(id) != nullptr);
  }
}

TEST_CASE("features match by name, overload and PTX instruction") {
  const FeatureTable& features = FeatureTable::builtin();
  CHECK(features.match_function("__reduce_add_sync", "unsigned int").size() == 1);
  CHECK(features.match_function("__hfma", "__nv_bfloat16").size() == 1);
  CHECK(features.match_function("__hfma", "__half").empty());  // fp16 fma is fine on 7.5
  CHECK(features.match_function("atomicAdd", "float4 *").size() == 1);
  CHECK(features.match_function("atomicAdd", "float *").empty());
  CHECK(features.match_ptx("cp.async.ca.shared.global").front()->id == "cp.async");
  CHECK(features.match_ptx("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes").front()->id ==
        "cp.async.bulk");
  CHECK(features.match_ptx("ld.global.f32").empty());
  CHECK(features.match_ptx("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32").empty());  // sm_75 shape
}

TEST_CASE("arch-specific features are not forward compatible") {
  const Feature* wgmma = FeatureTable::builtin().find("wgmma");
  REQUIRE(wgmma);
  CHECK(wgmma->available_on(*parse_capability("9.0a")));
  CHECK_FALSE(wgmma->available_on(*parse_capability("9.0")));
  CHECK_FALSE(wgmma->available_on(*parse_capability("10.0a")));
  const Feature* tcgen05 = FeatureTable::builtin().find("tcgen05");
  CHECK(tcgen05->available_on(*parse_capability("10.0f")));
  CHECK(tcgen05->available_on(*parse_capability("10.3a")));
  CHECK_FALSE(tcgen05->available_on(*parse_capability("12.0a")));
  const Feature* cp_async = FeatureTable::builtin().find("cp.async");
  CHECK(cp_async->available_on(*parse_capability("12.0")));
  CHECK_FALSE(cp_async->available_on(*parse_capability("7.5")));
}

TEST_CASE("broken tables are reported with a location") {
  auto bad = FeatureTable::parse("[[feature]]\nid = \"x\"\nkind = \"function\"\nmatch = [\"f\"]\nmin = \"nine\"\n", "t.toml");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().describe().find("t.toml:1") != std::string::npos);
  auto syntax = ArchTable::parse("[[arch]\n", "a.toml");
  REQUIRE_FALSE(syntax);
  CHECK(syntax.error().location.has_value());
}
