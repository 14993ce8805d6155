#include <catch2/catch.hpp>

#include "analyzers/model/feature_collector.h"

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
