// Theoretical occupancy (runner/occupancy.h) from the built-in arch table, against cases worked
// out by hand from the limits in archs.toml, one per limiter; and, once an H200 has measured them
// (bench/occupancy), against cudaOccupancyMaxActiveBlocksPerMultiprocessor row by row.
#include "runner/occupancy.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace {

using kl::analyzers::ArchLimits;
using kl::analyzers::ArchTable;
using kl::runner::compute_occupancy;
using kl::runner::Occupancy;

const ArchLimits& arch(const char* capability) {
  const ArchLimits* found = ArchTable::builtin().find(*kl::analyzers::parse_capability(capability));
  INFO(capability);
  REQUIRE(found);
  return *found;
}

Occupancy occupancy(const char* capability, uint32_t registers, uint64_t smem, uint32_t threads) {
  auto result = compute_occupancy(arch(capability), {registers, smem, threads});
  INFO(capability << ": " << registers << " registers, " << smem << " bytes, " << threads << " threads");
  REQUIRE(result);
  return *result;
}

bool runs(const char* capability, uint32_t registers, uint64_t smem, uint32_t threads) {
  return compute_occupancy(arch(capability), {registers, smem, threads}).has_value();
}

}  // namespace

TEST_CASE("sm_90: 32 registers x 256 threads fills the SM; the warp cap is named on a tie") {
  // 8 warps a block: 64/8 = 8 blocks by warps; 32*32 = 1024 registers a warp, 16 warps in each
  // of 4 sub-partitions = 64 warps = 8 blocks by registers as well.
  Occupancy o = occupancy("9.0", 32, 0, 256);
  CHECK(o.blocks_per_sm == 8);
  CHECK(o.active_warps == 64);
  CHECK(o.max_warps == 64);
  CHECK(o.fraction == Approx(1.0));
  CHECK(o.limited_by == "threads");
}

TEST_CASE("sm_90: 128 registers x 256 threads is register-limited to 25 %") {
  // 4096 registers a warp: 16384 per sub-partition hold 4 warps, 16 in all = 2 blocks of 8 warps.
  Occupancy o = occupancy("9.0", 128, 0, 256);
  CHECK(o.blocks_per_sm == 2);
  CHECK(o.active_warps == 16);
  CHECK(o.fraction == Approx(0.25));
  CHECK(o.limited_by == "registers");
}

TEST_CASE("registers are counted per sub-partition and in allocation units of 256 a warp") {
  // 40 registers: 1280 a warp; 16384/1280 = 12 warps per sub-partition (12.8 lost), 48 in all,
  // so 24 blocks of 2 warps; pooling the whole file would give 65536/1280 = 51 warps = 25 blocks.
  Occupancy forty = occupancy("9.0", 40, 0, 64);
  CHECK(forty.blocks_per_sm == 24);
  CHECK(forty.active_warps == 48);
  CHECK(forty.fraction == Approx(0.75));
  CHECK(forty.limited_by == "registers");
  // 33 registers: 1056 a warp, rounded up to 1280: the same as 40 (unrounded it would be 15 warps
  // per sub-partition, 30 blocks).
  CHECK(occupancy("9.0", 33, 0, 64).blocks_per_sm == 24);
  // 72 registers: 2304 a warp (already a multiple of 256), 7 warps per sub-partition, 28 in all.
  CHECK(occupancy("9.0", 72, 0, 128).blocks_per_sm == 7);
  CHECK(occupancy("9.0", 72, 0, 128).active_warps == 28);
}

TEST_CASE("the per-block register limit is checked with warps rounded up to whole sub-partition rounds") {
  // 255 registers: 8192 a warp; 8 warps = 65536 fit in one block (1 block, 12.5 %); 9 warps count
  // as 12 for the check (98304 > 65536) and cannot run.
  Occupancy full = occupancy("9.0", 255, 0, 256);
  CHECK(full.blocks_per_sm == 1);
  CHECK(full.fraction == Approx(0.125));
  CHECK(full.limited_by == "registers");
  CHECK_FALSE(runs("9.0", 255, 0, 288));
  // With a smaller per-block limit the rounding alone decides: 88 registers = 2816 a warp, 11
  // warps = 30976 <= 32768, but 12 x 2816 = 33792 > 32768; the sub-partitions would hold 20 warps.
  ArchLimits small = arch("9.0");
  small.registers_per_block = 32768;
  CHECK_FALSE(compute_occupancy(small, {88, 0, 352}));
  REQUIRE(compute_occupancy(small, {88, 0, 256}));
  CHECK(compute_occupancy(small, {88, 0, 256})->blocks_per_sm == 2);  // 8 warps: 2 blocks in 20
}

TEST_CASE("shared memory: the 1 KB reserve is added, then the block rounds up to 128 bytes (sm_90)") {
  // 48 KB + 1 KB = 50176 bytes a block; 233472 / 50176 = 4 blocks of 4 warps = 25 %.
  Occupancy o = occupancy("9.0", 32, 49152, 128);
  CHECK(o.blocks_per_sm == 4);
  CHECK(o.active_warps == 16);
  CHECK(o.fraction == Approx(0.25));
  CHECK(o.limited_by == "shared memory");
  // 45670 + 1024 = 46694, rounded to 46720: 4 blocks. Unrounded it would be 5 (233472 / 46694
  // = 5.0001), and without the reserve too (45696 rounded: 5.1).
  CHECK(occupancy("9.0", 32, 45670, 32).blocks_per_sm == 4);
  CHECK(occupancy("9.0", 32, 45670, 32).limited_by == "shared memory");
  // The opt-in limit of one block (227 KB) still runs, alone; one byte more does not.
  CHECK(occupancy("9.0", 32, 232448, 32).blocks_per_sm == 1);
  CHECK_FALSE(runs("9.0", 32, 232449, 32));
}

TEST_CASE("one-warp blocks stop at the blocks-per-SM cap") {
  Occupancy hopper = occupancy("9.0", 16, 0, 32);  // 32 blocks x 1 warp of 64
  CHECK(hopper.blocks_per_sm == 32);
  CHECK(hopper.fraction == Approx(0.5));
  CHECK(hopper.limited_by == "blocks per SM");
  CHECK(occupancy("8.0", 16, 0, 32).blocks_per_sm == 32);
  CHECK(occupancy("8.0", 16, 0, 32).fraction == Approx(0.5));
  CHECK(occupancy("8.6", 16, 0, 32).blocks_per_sm == 16);
  CHECK(occupancy("8.6", 16, 0, 32).fraction == Approx(16.0 / 48));
  CHECK(occupancy("8.9", 16, 0, 32).blocks_per_sm == 24);
  CHECK(occupancy("8.9", 16, 0, 32).fraction == Approx(0.5));
  CHECK(occupancy("7.5", 16, 0, 32).blocks_per_sm == 16);
  CHECK(occupancy("7.5", 16, 0, 32).fraction == Approx(0.5));
  CHECK(occupancy("12.0", 16, 0, 32).blocks_per_sm == 24);
  CHECK(occupancy("12.0", 16, 0, 32).fraction == Approx(0.5));
}

TEST_CASE("the built-in table's other capabilities: warps per SM, shared memory capacity") {
  // Turing holds 32 warps: 256-thread blocks of 32 registers, 4 of them, fill it.
  Occupancy turing = occupancy("7.5", 32, 0, 256);
  CHECK(turing.blocks_per_sm == 4);
  CHECK(turing.max_warps == 32);
  CHECK(turing.fraction == Approx(1.0));
  CHECK(turing.limited_by == "threads");
  // Turing has no reserve and 256-byte units: 16 KB blocks, 4 of them in 64 KB.
  CHECK(occupancy("7.5", 32, 16384, 64).blocks_per_sm == 4);
  CHECK(occupancy("7.5", 32, 16384, 64).limited_by == "shared memory");
  // A100: 164 KB per SM, 49152 + 1024 a block: 3 blocks of 8 warps = 37.5 %.
  Occupancy a100 = occupancy("8.0", 32, 49152, 256);
  CHECK(a100.blocks_per_sm == 3);
  CHECK(a100.fraction == Approx(0.375));
  CHECK(a100.limited_by == "shared memory");
  // 8.6 holds 48 warps: one 1024-thread block is 2/3 of it.
  Occupancy ga10x = occupancy("8.6", 32, 0, 1024);
  CHECK(ga10x.blocks_per_sm == 1);
  CHECK(ga10x.fraction == Approx(32.0 / 48));
  CHECK(ga10x.limited_by == "threads");
  // 12.0: 99 KB is the most one block may opt in to; 100 KB cannot run.
  CHECK(occupancy("12.0", 32, 101376, 128).blocks_per_sm == 1);
  CHECK_FALSE(runs("12.0", 32, 102400, 128));
}

TEST_CASE("a block that cannot run is no occupancy, not a clamped one") {
  CHECK_FALSE(runs("9.0", 32, 0, 1025));
  CHECK_FALSE(runs("9.0", 32, 0, 0));
  CHECK_FALSE(runs("9.0", 256, 0, 32));
  CHECK(runs("9.0", 255, 0, 32));
  CHECK(runs("9.0", 0, 0, 32));
}

TEST_CASE("best block size: the largest of those with the best occupancy") {
  using kl::runner::best_block_size;
  // 32 registers, no shared memory: 100 % from 64 threads up; the largest is the arch's maximum,
  // or __launch_bounds__' when smaller.
  auto light = best_block_size(arch("9.0"), 32, 0, std::nullopt);
  REQUIRE(light);
  CHECK(light->threads == 1024);
  CHECK(light->occupancy.fraction == Approx(1.0));
  auto bounded = best_block_size(arch("9.0"), 32, 0, 256u);
  REQUIRE(bounded);
  CHECK(bounded->threads == 256);
  // 128 registers: 16 warps per SM at most; 1024 threads cannot run, 512 is the largest with 16.
  auto heavy = best_block_size(arch("9.0"), 128, 0, std::nullopt);
  REQUIRE(heavy);
  CHECK(heavy->threads == 512);
  CHECK(heavy->occupancy.active_warps == 16);
  // 72 registers: 28 warps per SM; 896 threads (28 warps) is the largest block that reaches them.
  auto odd = best_block_size(arch("9.0"), 72, 0, std::nullopt);
  REQUIRE(odd);
  CHECK(odd->threads == 896);
  CHECK(odd->occupancy.active_warps == 28);
  CHECK(odd->occupancy.fraction == Approx(28.0 / 64));
  // __launch_bounds__(16): one half-warp block size, 32 such blocks.
  auto tiny = best_block_size(arch("9.0"), 16, 0, 16u);
  REQUIRE(tiny);
  CHECK(tiny->threads == 16);
  CHECK(tiny->occupancy.blocks_per_sm == 32);
  // Nothing fits: more shared memory than a block may have.
  CHECK_FALSE(best_block_size(arch("9.0"), 32, 300000, std::nullopt));
}

TEST_CASE("the H200 measurements (bench/occupancy) agree with the model row by row") {
  namespace fs = std::filesystem;
  // $KL_OCCUPANCY_RESULTS names another GPU's measurements (same format).
  const char* other = std::getenv("KL_OCCUPANCY_RESULTS");
  const fs::path results =
      other && *other ? fs::path(other) : fs::path(KL_SOURCE_DIR) / "bench/occupancy/results/h200.jsonl";
  if (!fs::exists(results)) {
    WARN("no " << results.string() << " yet (bench/occupancy/README.md): measured occupancy NOT compared");
    return;
  }
  std::ifstream in(results);
  std::string line;
  size_t rows = 0, beyond_launch_bounds = 0, line_number = 0;
  bool saw_device = false;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    INFO(results.string() << ":" << line_number << ": " << line);
    const auto row = nlohmann::json::parse(line);
    const std::string capability = row.at("capability").get<std::string>();
    const ArchLimits* limits = ArchTable::builtin().find(*kl::analyzers::parse_capability(capability));
    REQUIRE(limits);
    if (row.contains("device")) {
      // The device's own figures are the table's.
      saw_device = true;
      CHECK(row.at("max_blocks_per_sm").get<uint32_t>() == limits->max_blocks_per_sm);
      CHECK(row.at("regs_per_sm").get<uint32_t>() == limits->registers_per_sm);
      CHECK(row.at("regs_per_block").get<uint32_t>() == limits->registers_per_block);
      CHECK(row.at("max_threads_per_sm").get<uint32_t>() == limits->max_threads_per_sm);
      CHECK(row.at("smem_per_sm").get<uint64_t>() == limits->smem_per_sm);
      CHECK(row.at("smem_per_block_optin").get<uint64_t>() == limits->max_dynamic_smem_per_block);
      CHECK(row.at("reserved_smem_per_block").get<uint32_t>() == limits->reserved_smem_per_block);
      continue;
    }
    const auto threads = row.at("block").get<uint32_t>();
    const auto measured = row.at("blocks_per_sm").get<uint32_t>();
    kl::runner::OccupancyInput input;
    input.registers_per_thread = row.at("regs").get<uint32_t>();
    input.shared_bytes_per_block =
        row.at("static_smem").get<uint64_t>() + row.at("dynamic_smem").get<uint64_t>();
    input.threads_per_block = threads;
    const auto model = compute_occupancy(*limits, input);
    const uint32_t expected = model ? model->blocks_per_sm : 0;
    if (threads > row.at("max_threads").get<uint32_t>() && model) {
      // __launch_bounds__ (which the model is not told) forbids the block; nothing to compare.
      ++beyond_launch_bounds;
      continue;
    }
    CHECK(measured == expected);
    ++rows;
  }
  CHECK(saw_device);
  CHECK(rows >= 100);
  INFO(rows << " rows compared, " << beyond_launch_bounds << " beyond a kernel's __launch_bounds__");
  SUCCEED();
}
