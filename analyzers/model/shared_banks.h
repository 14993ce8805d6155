#pragma once
// How a warp request to shared memory is served by its 32 banks (the bank-conflict rule's
// number): pure arithmetic on the lanes' addresses, no clang.
#include <cstdint>
#include <vector>

namespace kl::analyzers {

// Shared-memory wavefronts of one warp request: 32 banks of 4 bytes each serve one 4-byte word
// per wavefront, and lanes reading the same word share it (a broadcast). Accesses wider than 4
// bytes are served a phase of lanes at a time (128 bytes: 16 lanes of 8 bytes, 8 lanes of 16), as
// on every architecture from Volta on. `lanes[i]` is the lane (0-31) of `addresses[i]` (bytes
// from any 4-byte aligned origin). `ideal` receives the wavefronts the same lanes need without a
// conflict: one per phase that has an active lane.
uint32_t bank_wavefronts(const std::vector<int64_t>& addresses, const std::vector<int>& lanes, uint32_t width,
                         uint32_t& ideal);

}  // namespace kl::analyzers
