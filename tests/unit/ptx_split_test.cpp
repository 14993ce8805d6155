#include <catch2/catch.hpp>

#include "analyzers/model/ptx_text.h"

using kl::analyzers::split_ptx_instructions;

TEST_CASE("inline PTX splits into instructions with predicates, braces and directives skipped") {
  std::string text = "{\n .reg .pred P;\n elect.sync _|P, 0xffffffff;\n @P selp.u32 %0, 1, 0, P;\n}\n"
                     "LOOP: cp.async.wait_group 0; // done\n/* cp.async.bulk */ bar.sync 0;";
  auto instructions = split_ptx_instructions(text);
  std::vector<std::string> mnemonics;
  for (const auto& i : instructions) mnemonics.push_back(i.mnemonic);
  std::vector<std::string> expected = {"elect.sync", "selp.u32", "cp.async.wait_group", "bar.sync"};
  CHECK(mnemonics == expected);
  CHECK(text.substr(instructions[0].offset, 10) == "elect.sync");
}

TEST_CASE("memory instructions of inline PTX: kind, state space, width and address operand") {
  using kl::analyzers::MemorySpace;
  using kl::analyzers::PtxMemoryAccess;
  using kl::analyzers::ptx_memory_accesses;
  auto a = ptx_memory_accesses(
      "{ .reg .pred p; setp.ne.b32 p, %5, 0;\n"
      "@p ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4+16]; }\n"
      "st.global.b16 [%[out]], %%rs1;\n"
      "cp.async.cg.shared.global [%0], [%1], 16;\n"
      "cp.async.ca.shared.global.L2::128B [%0], [%1], %2, %3;\n"
      "ld.shared.f32 %0, [%1];\n"
      "ld.u64 %0, [%%rd4];\n"
      "red.global.add.f32 [%0], %1;\n"
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];\n"
      "mov.u32 %0, %%laneid;");
  REQUIRE(a.size() == 7);
  CHECK(a[0].kind == PtxMemoryAccess::Kind::Load);
  CHECK(a[0].space == MemorySpace::Global);
  CHECK(a[0].width == 16);
  CHECK(a[0].operand == 4);
  CHECK(a[0].offset == 16);
  CHECK(a[1].kind == PtxMemoryAccess::Kind::Store);
  CHECK(a[1].width == 2);
  CHECK(a[1].operand_name == "out");
  CHECK(a[2].mnemonic == "cp.async.cg.shared.global");
  CHECK(a[2].operand == 1);  // the global source, not the shared destination
  CHECK(a[2].width == 16);
  CHECK(a[3].width == 0);
  CHECK(a[3].width_operand == 2);
  CHECK(a[4].space == MemorySpace::Shared);
  CHECK(a[5].space == MemorySpace::Unknown);  // generic addressing
  CHECK(a[5].operand == -1);                  // a PTX register, not an asm operand
  CHECK(a[6].kind == PtxMemoryAccess::Kind::Atomic);
  CHECK(a[6].width == 4);
}
