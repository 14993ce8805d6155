#include <catch2/catch.hpp>

#include "analyzers/project/capability.h"

using kl::analyzers::ArchVariant;
using kl::analyzers::parse_capability;

TEST_CASE("capabilities parse as build.toml writes them") {
  auto plain = parse_capability("8.0");
  REQUIRE(plain);
  CHECK(plain->number() == 80);
  CHECK(plain->cuda_arch_macro() == 800);
  CHECK(plain->gencode() == "-gencode=arch=compute_80,code=sm_80");

  auto specific = parse_capability("9.0a");
  REQUIRE(specific);
  CHECK(specific->variant == ArchVariant::Specific);
  CHECK(specific->gencode() == "-gencode=arch=compute_90a,code=sm_90a");

  auto family = parse_capability("10.0f");
  REQUIRE(family);
  CHECK(family->variant == ArchVariant::Family);
  CHECK(family->sm_name() == "sm_100f");

  auto ptx = parse_capability("12.1+PTX");
  REQUIRE(ptx);
  CHECK(ptx->ptx);
  CHECK(ptx->text() == "12.1+PTX");
}

TEST_CASE("strings that are not capabilities are rejected, not guessed") {
  for (const char* bad : {"", "9", "9.", ".0", "sm_90", "9.0b", "9.10", "9.0a+ptx", "9.0 ", "abc", "99999.0"})
    CHECK_FALSE(parse_capability(bad));
}
