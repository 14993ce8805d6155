#pragma once
// How many 32-byte sectors one warp request of an access touches: the access model's answer to
// "is this coalesced". The address is a form over atoms; the warp's lanes are enumerated
// (threadIdx.x fastest; threadIdx.y inside the warp only when blockDim.x is known to be < 32),
// thread-index atoms take their lane values, quotients (`tid / 32`) are evaluated per lane, and
// every other atom takes one large, sector-aligned value per warp (so a runtime stride counts as
// "far apart", a runtime row offset as "somewhere aligned"). Known congruences keep their
// residues, so `in[i + 1]` starts 4 bytes into a sector. Block, warp and loop indices whose
// coefficient every launch fixes are then stepped through the residues they reach (row starts).
//
// No clang; pure function of its inputs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/model/access_record.h"
#include "analyzers/model/affine_form.h"
#include "analyzers/model/shared_banks.h"

namespace kl::analyzers {

struct BlockShape {
  std::optional<uint32_t> x, y, z;  // known blockDim, from launches or facts
  std::string describe() const;     // "blockDim = (16, 16)"; empty when x is unknown
};

// A path condition on the thread index: `form op 0`.
struct LaneGuard {
  enum class Op : uint8_t { Eq, Ne, Lt, Le };
  Poly form;
  Op op = Op::Eq;
};

struct WarpQuery {
  const AtomTable* atoms = nullptr;
  Poly offset;           // bytes from the base (the base's own address is not part of it)
  uint32_t width = 4;    // bytes per lane
  int64_t element_size = 0;  // for printing strides in elements (0: print bytes)
  BlockShape block;
  std::vector<LaneGuard> guards;
  const PathFacts* facts = nullptr;
  AtomId thread_atoms[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};  // threadIdx.x/y/z, if used
  AtomId block_dim_atoms[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  // Shared memory: the request is counted in bank wavefronts (bank_wavefronts below), not in
  // sectors, and row starts are not stepped (a shift common to the warp moves every lane to
  // another bank alike, which changes no conflict).
  bool shared = false;
};

struct WarpEstimate {
  LanePattern pattern = LanePattern::Unknown;
  uint32_t sectors = 0;             // per request, the largest over the warps simulated
  uint32_t ideal_sectors = 0;       // ceil(active lanes * width / 32) for that warp
  uint32_t sectors_if_aligned = 0;  // with the warp's first address moved to a sector boundary
  uint32_t active_lanes = 0;
  uint32_t window_shift = 0;        // bytes the warp's first address lies past a sector boundary
  std::optional<int64_t> lane_stride;  // bytes between adjacent lanes along lane_dimension
  bool runtime_stride = false;
  std::string stride_text;
  bool stride_in_elements = false;
  std::string lane_dimension;
  std::string gather_index;  // DataDependent through values loaded per lane: the first one's text
  bool gather_from_shared = false;  // some of those values were read from shared memory
  // Shared memory (query.shared): bank wavefronts of the worst warp's request, and the number
  // the same lanes would need without a bank conflict.
  uint32_t wavefronts = 0;
  uint32_t ideal_wavefronts = 0;
  // Shared memory: a loop index steps each lane through its consecutive elements, which an
  // unrolled loop turns into one vector access per lane; the wavefronts above are then that
  // vector's, `loop_vector_width` bytes per lane (0: no such loop).
  uint32_t loop_vector_width = 0;

  // Row starts: a block or loop index whose coefficient in the address is known (`row * C` with
  // C = 50257 at every launch) moves the warp's first address by a known amount per step, so
  // the rows start at every residue that amount reaches. The steps simulated (row_steps, 0
  // when no such index exists), how many of them start the worst warp inside a sector, and the
  // extra sectors of the worst warp summed over them.
  uint32_t row_steps = 0;
  uint32_t rows_off_sector = 0;
  uint32_t row_excess_total = 0;
  std::string row_index;            // `blockIdx.x`
  std::string row_stride_text;      // the index's coefficient, in elements when it divides: `C`
  std::optional<int64_t> row_stride;  // its value
  bool row_stride_in_elements = false;  // in elements of element_size (else in bytes)
};

WarpEstimate estimate_warp(const WarpQuery& query);


// Sectors of one warp request of `lanes` lanes, `stride` bytes apart, `width` bytes each, the
// first on a sector boundary (the count estimate_warp makes for a simulated warp).
uint32_t sectors_for_stride(uint32_t lanes, int64_t stride, uint32_t width);

}  // namespace kl::analyzers
