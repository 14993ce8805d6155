#pragma once
// Theoretical occupancy: how many blocks of a kernel fit on one SM at once, given what ptxas says
// the kernel uses (registers, static shared memory) and how it is launched (block size, dynamic
// shared memory), from the arch table's limits alone. It follows the model of NVIDIA's occupancy
// calculator: registers go to warps in allocation units, each warp's from one of the register
// file's sub-partitions; shared memory goes to blocks in allocation units after the driver's
// per-block reserve; the SM's caps on resident warps and blocks apply on top. Shared memory is
// counted against the SM's whole capacity, as with the default carveout once a kernel asks for
// more than its default split.
//
// Not modelled: barriers (one __syncthreads barrier per block never limits on current GPUs;
// named barriers can), Blackwell's virtual resources, and __launch_bounds__ (the caller passes
// the block size, or its maximum to best_block_size). Pure arithmetic; thread-safe.
#include <cstdint>
#include <optional>
#include <string>

#include "analyzers/data/arch_table.h"

namespace kl::runner {

struct OccupancyInput {
  uint32_t registers_per_thread = 0;
  uint64_t shared_bytes_per_block = 0;  // static + dynamic, as the kernel asks for them
  uint32_t threads_per_block = 0;
};

struct Occupancy {
  uint32_t blocks_per_sm = 0;
  uint32_t active_warps = 0;  // per SM
  uint32_t max_warps = 0;     // the SM's resident-warp limit
  double fraction = 0;        // active_warps / max_warps
  // What stops one more block from fitting: "threads" (resident warps), "blocks per SM",
  // "registers" or "shared memory". When several stop it at once, the first of that list is
  // named: a kernel cannot get past the SM's own caps by using fewer resources.
  std::string limited_by;
};

// Nothing when a block of this shape cannot run at all: more threads than the arch allows in a
// block, more registers per thread or per block than it has, or more shared memory than a block
// may opt in to. Nothing is clamped to make it fit.
std::optional<Occupancy> compute_occupancy(const analyzers::ArchLimits& arch, const OccupancyInput& input);

struct BlockSizeChoice {
  uint32_t threads = 0;
  Occupancy occupancy;
};

// For a kernel whose block size is not known: the largest block size that reaches the best
// occupancy, among the multiples of 32 up to the arch's threads per block and `max_threads`
// (from __launch_bounds__, say) when given; `max_threads` itself when it is below one warp.
// Nothing when no block size can run.
std::optional<BlockSizeChoice> best_block_size(const analyzers::ArchLimits& arch,
                                               uint32_t registers_per_thread, uint64_t shared_bytes_per_block,
                                               std::optional<uint32_t> max_threads);

}  // namespace kl::runner
