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

TEST_CASE("occupancy figures: resident blocks, registers and shared memory units per capability") {
  struct Expected {
    const char* capability;
    uint32_t max_blocks_per_sm;
    uint32_t max_warps_per_sm;
    uint32_t smem_allocation_unit;
    uint32_t reserved_smem_per_block;
  };
  for (const Expected& e : {Expected{"7.5", 16, 32, 256, 0}, Expected{"8.0", 32, 64, 128, 1024},
                            Expected{"8.6", 16, 48, 128, 1024}, Expected{"8.7", 16, 48, 128, 1024},
                            Expected{"8.9", 24, 48, 128, 1024}, Expected{"9.0", 32, 64, 128, 1024},
                            Expected{"10.0", 32, 64, 128, 1024}, Expected{"10.1", 24, 48, 128, 1024},
                            Expected{"10.3", 32, 64, 128, 1024}, Expected{"11.0", 24, 48, 128, 1024},
                            Expected{"12.0", 24, 48, 128, 1024}, Expected{"12.1", 24, 48, 128, 1024}}) {
    INFO(e.capability);
    const ArchLimits& limits = arch(e.capability);
    CHECK(limits.max_blocks_per_sm == e.max_blocks_per_sm);
    CHECK(limits.max_warps_per_sm() == e.max_warps_per_sm);
    CHECK(limits.smem_allocation_unit == e.smem_allocation_unit);
    CHECK(limits.reserved_smem_per_block == e.reserved_smem_per_block);
  }
  for (const ArchLimits& entry : ArchTable::builtin().all()) {
    INFO(entry.capability.text());
    CHECK(entry.max_registers_per_thread == 255);
    CHECK(entry.register_allocation_unit == 256);
    CHECK(entry.registers_per_block <= entry.registers_per_sm);
    // The register file splits evenly into sub-partitions of whole allocation units.
    CHECK(entry.registers_per_sm % (entry.register_sub_partitions * entry.register_allocation_unit) == 0);
    // From 8.0 on, the opt-in limit of a block plus the driver's reserve is the SM's capacity.
    if (entry.capability.major >= 8)
      CHECK(entry.max_dynamic_smem_per_block + entry.reserved_smem_per_block == entry.smem_per_sm);
  }
  CHECK(arch("9.0").registers_per_sm == 65536);
  CHECK(arch("3.7").registers_per_sm == 131072);
  CHECK(arch("6.0").register_sub_partitions == 2);
}

TEST_CASE("an occupancy figure of zero is refused: the calculation divides by it") {
  auto zero_unit = ArchTable::parse("[[arch]]\ncapability = \"9.0\"\nsmem_allocation_unit = 0\n", "a.toml");
  REQUIRE_FALSE(zero_unit);
  CHECK(zero_unit.error().message.find("smem_allocation_unit") != std::string::npos);
  CHECK(zero_unit.error().location.has_value());
  auto negative = ArchTable::parse("[[arch]]\ncapability = \"9.0\"\nmax_blocks_per_sm = -1\n", "a.toml");
  REQUIRE_FALSE(negative);
  CHECK(negative.error().message.find("max_blocks_per_sm") != std::string::npos);
  auto defaults = ArchTable::parse("[[arch]]\ncapability = \"9.0\"\n", "a.toml");
  REQUIRE(defaults);
  CHECK(defaults->all().front().register_sub_partitions == 4);
}
