#pragma once
// Do two shared-memory accesses of one block touch the same bytes from different threads?
// The question behind shared-race, answered by enumeration: the threads of the block (as the
// launches fix it, or a small assumed block), and the iterations of the loops the addresses
// step through (when their trip counts are known), each access's bytes computed exactly.
//
// An answer is a proof or nothing: the parts of the two addresses the enumeration cannot
// evaluate (a kernel parameter, a block index, a loop's iteration with an unknown trip count)
// must be the same in both, and every path condition on the thread index must be evaluable;
// otherwise the pair is not judged.
//
// No clang; a pure function of its inputs.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/model/access_warp.h"
#include "analyzers/model/affine_form.h"

namespace kl::analyzers {

// One access as the enumeration needs it.
struct SharedTouchForm {
  Poly offset;                    // bytes from the array's start
  uint32_t width = 0;             // bytes
  std::vector<LaneGuard> guards;  // the thread-index conditions the access is under
};

// A loop variable stepped geometrically (`stride >>= 1` from 128): its value in iteration i of
// the loop is values[i + shift] (shift 1: the next iteration's value).
struct LoopSequence {
  AtomId iteration = 0;  // the loop's iteration atom (its trip count is values.size())
  std::vector<int64_t> values;
  int shift = 0;
};

struct HazardDomain {
  const AtomTable* atoms = nullptr;
  const PathFacts* facts = nullptr;  // known values (blockDim from launches, `if (n != 64) return;`)
  BlockShape block;                  // known block dimensions
  // How many iterations each loop's induction atom runs, where the loop says (`j < 32` with
  // j += 8: 4). Atoms not listed are treated like parameters: the same unknown in both accesses.
  const std::map<AtomId, int64_t>* trip_counts = nullptr;
  const std::map<AtomId, LoopSequence>* sequences = nullptr;
};

struct HazardWitness {
  int64_t first_thread[3] = {0, 0, 0};
  int64_t second_thread[3] = {0, 0, 0};
  int64_t byte = 0;               // relative to the parts both addresses share
  bool block_assumed = false;     // a block dimension the addresses or guards use was assumed
  uint32_t block[3] = {1, 1, 1};  // the block enumerated
  bool needs_iterations = false;  // the witness uses a loop iteration past the first
  bool same_warp = false;         // no pair of threads from different warps was found
};

// Whether the thread-index conditions `guards` hold for some threads of the block and not for
// others: true when they split it, false when every thread agrees, nothing when they cannot be
// evaluated. `assumed` tells whether a block dimension they use had to be assumed.
std::optional<bool> guards_split_block(const HazardDomain& domain, const std::vector<LaneGuard>& guards,
                                       bool& assumed);

// A thread of the block that makes `first` and a different thread that makes `second` touching
// a common byte; nothing when there is none or the pair cannot be judged.
std::optional<HazardWitness> find_shared_hazard(const HazardDomain& domain, const SharedTouchForm& first,
                                                const SharedTouchForm& second);

}  // namespace kl::analyzers
