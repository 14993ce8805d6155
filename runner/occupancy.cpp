#include "runner/occupancy.h"

#include <algorithm>
#include <array>
#include <limits>

namespace kl::runner {
namespace {

constexpr uint32_t kWarpSize = 32;
constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();

uint64_t round_up(uint64_t value, uint64_t unit) { return (value + unit - 1) / unit * unit; }

// Blocks per SM that the register file allows; nothing when one block does not fit.
std::optional<uint64_t> blocks_by_registers(const analyzers::ArchLimits& arch, uint32_t registers_per_thread,
                                            uint32_t warps_per_block) {
  if (registers_per_thread == 0) return kUnlimited;
  const uint64_t per_warp =
      round_up(uint64_t{registers_per_thread} * kWarpSize, arch.register_allocation_unit);
  // The hardware checks a block against the per-block limit as if its warps were spread over
  // every sub-partition at once, i.e. with the warp count rounded up to whole rounds of them.
  if (per_warp * round_up(warps_per_block, arch.register_sub_partitions) > arch.registers_per_block)
    return std::nullopt;
  // A warp's registers come from a single sub-partition, so what is left over in each one is
  // lost rather than pooled: count whole warps per sub-partition first.
  const uint64_t warps_per_sub_partition = (arch.registers_per_sm / arch.register_sub_partitions) / per_warp;
  return warps_per_sub_partition * arch.register_sub_partitions / warps_per_block;
}

uint64_t blocks_by_shared_memory(const analyzers::ArchLimits& arch, uint64_t shared_bytes_per_block) {
  const uint64_t allocated =
      round_up(shared_bytes_per_block + arch.reserved_smem_per_block, arch.smem_allocation_unit);
  return allocated == 0 ? kUnlimited : arch.smem_per_sm / allocated;
}

}  // namespace

std::optional<Occupancy> compute_occupancy(const analyzers::ArchLimits& arch, const OccupancyInput& input) {
  if (input.threads_per_block == 0 || input.threads_per_block > arch.max_threads_per_block)
    return std::nullopt;
  if (input.registers_per_thread > arch.max_registers_per_thread) return std::nullopt;
  if (input.shared_bytes_per_block > arch.max_dynamic_smem_per_block) return std::nullopt;
  const uint32_t warps_per_block = (input.threads_per_block + kWarpSize - 1) / kWarpSize;
  const auto by_registers = blocks_by_registers(arch, input.registers_per_thread, warps_per_block);
  if (!by_registers) return std::nullopt;

  struct Limit {
    const char* name;
    uint64_t blocks;
  };
  // In the order that names the limiter when several tie (see Occupancy::limited_by).
  const std::array<Limit, 4> limits = {
      {{"threads", arch.max_warps_per_sm() / warps_per_block},
       {"blocks per SM", arch.max_blocks_per_sm},
       {"registers", *by_registers},
       {"shared memory", blocks_by_shared_memory(arch, input.shared_bytes_per_block)}}};
  const Limit& tightest = *std::min_element(
      limits.begin(), limits.end(), [](const Limit& a, const Limit& b) { return a.blocks < b.blocks; });
  if (tightest.blocks == 0) return std::nullopt;

  Occupancy result;
  result.blocks_per_sm = static_cast<uint32_t>(tightest.blocks);
  result.active_warps = result.blocks_per_sm * warps_per_block;
  result.max_warps = arch.max_warps_per_sm();
  result.fraction = static_cast<double>(result.active_warps) / result.max_warps;
  result.limited_by = tightest.name;
  return result;
}

std::optional<BlockSizeChoice> best_block_size(const analyzers::ArchLimits& arch,
                                               uint32_t registers_per_thread, uint64_t shared_bytes_per_block,
                                               std::optional<uint32_t> max_threads) {
  const uint32_t limit =
      std::min(arch.max_threads_per_block, max_threads.value_or(arch.max_threads_per_block));
  std::optional<BlockSizeChoice> best;
  auto consider = [&](uint32_t threads) {
    auto occupancy = compute_occupancy(arch, {registers_per_thread, shared_bytes_per_block, threads});
    // `>=`: among block sizes with the same occupancy the larger one wins, as it needs fewer blocks.
    if (occupancy && (!best || occupancy->active_warps >= best->occupancy.active_warps))
      best = BlockSizeChoice{threads, *occupancy};
  };
  if (limit > 0 && limit < kWarpSize) consider(limit);
  for (uint32_t threads = kWarpSize; threads <= limit; threads += kWarpSize) consider(threads);
  return best;
}

}  // namespace kl::runner
