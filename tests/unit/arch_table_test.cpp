// The arch table's toolkit history (analyzers/data/archs.toml through ArchTable): which CUDA
// toolkits target which capability, which were renamed, which have 'a' and 'f' variants. The
// arch-unsupported rule builds its messages from these facts only.
#include "analyzers/data/arch_table.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

using namespace kl::analyzers;

const ArchLimits& arch(const char* capability) {
  const ArchLimits* found = ArchTable::builtin().find(*parse_capability(capability));
  INFO(capability);
  REQUIRE(found);
  return *found;
}

std::string text(const std::optional<MajorMinor>& version) {
  return version ? cuda_version_text(*version) : "-";
}

}  // namespace

TEST_CASE("10.1 was targeted by CUDA 12.8-12.9; CUDA 13.0 calls it 11.0") {
  const ArchLimits& thor_old = arch("10.1");
  CHECK(text(thor_old.history.first_cuda) == "12.8");
  CHECK(text(thor_old.history.last_cuda) == "12.9");
  REQUIRE(thor_old.history.renamed_to);
  CHECK(thor_old.history.renamed_to->text() == "11.0");
  const ArchLimits& thor = arch("11.0");
  CHECK(text(thor.history.first_cuda) == "13.0");
  CHECK_FALSE(thor.history.last_cuda);
  CHECK(ArchTable::builtin().renamed_from(*parse_capability("11.0")) == &thor_old);
  CHECK(ArchTable::builtin().renamed_from(*parse_capability("10.0")) == nullptr);
}

TEST_CASE("CUDA 13.0 targets 7.5 and newer: everything older ends at 12.9 or before") {
  for (const ArchLimits& entry : ArchTable::builtin().all()) {
    INFO(entry.capability.text());
    if (entry.capability.number() < 75) {
      REQUIRE(entry.history.last_cuda);
      CHECK(*entry.history.last_cuda <= MajorMinor{12, 9});
    } else if (entry.capability.number() != 101) {
      CHECK_FALSE(entry.history.last_cuda);
    }
  }
  CHECK(text(arch("7.0").history.last_cuda) == "12.9");
  CHECK(text(arch("3.5").history.last_cuda) == "11.8");  // Kepler: CUDA 12.0 dropped it
}

TEST_CASE("the toolkits that brought each new capability and variant") {
  CHECK(text(arch("8.9").history.first_cuda) == "-");  // CUDA 11.8 or older
  CHECK(text(arch("8.8").history.first_cuda) == "13.0");
  CHECK(text(arch("10.0").first_cuda(ArchVariant::Plain)) == "12.8");
  CHECK(text(arch("10.3").first_cuda(ArchVariant::Plain)) == "12.9");
  CHECK(text(arch("12.1").first_cuda(ArchVariant::Plain)) == "12.9");
  CHECK(text(arch("9.0").first_cuda(ArchVariant::Specific)) == "12.0");
  CHECK(text(arch("10.0").first_cuda(ArchVariant::Family)) == "12.9");
}

TEST_CASE("'a' variants from 9.0 on, 'f' variants from 10.0 on, as nvcc 13.0 builds them") {
  CHECK(arch("9.0").has_variant(ArchVariant::Specific));
  CHECK_FALSE(arch("9.0").has_variant(ArchVariant::Family));
  CHECK_FALSE(arch("8.9").has_variant(ArchVariant::Specific));
  CHECK_FALSE(arch("8.8").has_variant(ArchVariant::Specific));
  for (const char* capability : {"10.0", "10.3", "11.0", "12.0", "12.1"}) {
    INFO(capability);
    CHECK(arch(capability).has_variant(ArchVariant::Specific));
    CHECK(arch(capability).has_variant(ArchVariant::Family));
  }
  CHECK(ArchTable::builtin().first_with_variant(ArchVariant::Specific)->capability.text() == "9.0");
  CHECK(ArchTable::builtin().first_with_variant(ArchVariant::Family)->capability.text() == "10.0");
}

TEST_CASE("a history that contradicts itself is refused with a location") {
  auto no_target = ArchTable::parse(
      "[[arch]]\ncapability = \"10.1\"\nlast_cuda = \"12.9\"\nrenamed_to = \"11.0\"\n", "a.toml");
  REQUIRE_FALSE(no_target);
  CHECK(no_target.error().message.find("11.0") != std::string::npos);

  auto not_retired = ArchTable::parse("[[arch]]\ncapability = \"10.1\"\nrenamed_to = \"10.1\"\n", "a.toml");
  REQUIRE_FALSE(not_retired);
  CHECK(not_retired.error().message.find("last_cuda") != std::string::npos);

  auto backwards = ArchTable::parse(
      "[[arch]]\ncapability = \"9.0\"\nfirst_cuda = \"12.8\"\nlast_cuda = \"12.0\"\n", "a.toml");
  REQUIRE_FALSE(backwards);
  CHECK(backwards.error().location.has_value());

  auto not_a_version =
      ArchTable::parse("[[arch]]\ncapability = \"9.0\"\nfirst_cuda = \"twelve\"\n", "a.toml");
  REQUIRE_FALSE(not_a_version);
  CHECK(not_a_version.error().message.find("first_cuda") != std::string::npos);
}
