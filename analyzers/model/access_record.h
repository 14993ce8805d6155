#pragma once
// One memory access of device code as the access model saw it: plain data for the rules
// (uncoalesced-access, misaligned-access), the hovers and `kernel-lsp check`. The model
// computes the verdict-bearing numbers (sectors per warp request, alignment of the address);
// the rules only decide whether and how to report them.
//
// An access written once may be recorded several times: once per template instantiation, per
// call site of an inlined helper, per kernel that reaches it. Rules merge records by location.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/finding.h"

namespace kl::analyzers {

enum class MemorySpace : uint8_t { Global, Shared, Local, Constant, Unknown };

// How the addresses of one warp request are spread over its lanes.
enum class LanePattern : uint8_t {
  Estimated,      // the model computed the sectors of a warp request
  Uniform,        // every lane uses the same address (a broadcast)
  SingleLane,     // at most one lane per warp is active (`if (threadIdx.x == 0)`)
  DataDependent,  // the address depends on loaded data (a gather): not judged
  Unknown,        // the model lost track (a non-affine index, an unresolved call)
};

enum class AlignmentVerdict : uint8_t {
  NotChecked,      // a scalar access through its own type, or not global/shared memory
  Aligned,         // provably a multiple of the required alignment
  Misaligned,      // provably misaligned (for some thread, or always)
  Conditional,     // aligned only when `alignment_condition` holds
  BaseUnderaligned,// the base itself is only guaranteed less than the width (a byte buffer)
  Unknown,         // the base's alignment is unknown (a loaded pointer)
};

// The row of a `__shared__` array, for the padding fix: the innermost dimension's size as
// written and the row's bytes. Known only for a static array of two or more dimensions that its
// function uses through full subscripts alone (`tile[r][c]`), where one more element per row
// moves no access but the ones it should (shared_rows.h).
struct SharedRow {
  Location size;          // `TILE` in `__shared__ float tile[TILE][TILE]`
  std::string size_text;  // "TILE"
  uint64_t bytes = 0;     // 128
};

// The last block of a grid launched as ceil(count / block) blocks has threads whose index along
// `dimension` (blockIdx * blockDim + threadIdx) is count or more whenever block does not divide
// count; an access at that index plus `past_count` that no condition guards reaches past count.
struct TailReach {
  int dimension = 0;       // 0 x, 1 y, 2 z
  int64_t block = 0;       // threads per block along it
  int64_t past_count = 0;  // the access's index minus the thread's index (0 for `out[i]`; -1: not a constant)
  std::string stride;      // what the thread's index is multiplied by, when not 1 (`cols`)
  std::string count;       // the count as the launch writes it ("n")
  std::optional<int64_t> count_value;  // its value at that launch, when the host fixes it
  std::string parameter;   // the kernel parameter the launch passes it as (empty: not passed)
  Location launch;
  // Where every launch's host code makes the buffer exactly `count` elements long ("`a` holds
  // n elements: cudaMalloc at line 95"): then the access is past its end, not maybe.
  std::string extent;
};

// A guarded access past the guard's count (`if (i < n) ... in[i + 1]`, `i <= n`) into a buffer
// that every launch's host code makes exactly that many elements long: the thread at the last
// index the test lets through reaches `past` elements past the end.
struct GuardedOverrun {
  int64_t past = 0;        // elements past the end the last index reaches: 1 for `in[i + 1]` under `i < n`
  std::string index;       // what the test bounds ("blockIdx.x * 256 + threadIdx.x")
  std::string count;       // "n"
  bool inclusive = false;  // the test is `<=`
  int64_t when_not_multiple_of = 0;  // > 0: reached only when the count is not a multiple of it
  std::string extent;      // "the launch at line 120 passes `a`, which holds n elements (cudaMalloc at line 95)"
  Location launch;         // the rounded-up launch, when that is what reaches the bound
};

// A loop whose condition lets its variable reach the bound (`c <= cols`) while the access walks a
// row of that length (`in[row * cols + c]`): its last iteration touches element `cols` of the
// row, the first of the next row, and past the end of the buffer in the last row.
struct RowOverrun {
  std::string variable;  // "c"
  std::string bound;     // "cols"
  std::string row;       // "blockIdx.x"
};

// A vector access (`reinterpret_cast<const float4*>(in)[v]`, a `Pack<bf16, 8>` load) whose path
// tests only that the vector's first element is below the count (`4 * v < n`): when the count is
// not a multiple of the vector's length, the last vector reaches past element count - 1.
struct VectorTail {
  int64_t span = 0;          // elements per access (4 floats of a float4)
  int64_t element_size = 0;  // bytes of one element of the parameter's type
  std::string element_type;  // "float"
  std::string count;         // "n"
  std::string extent;        // as TailReach::extent: where the host makes the buffer exactly count long
};

struct MemoryAccess {
  Location location;                // the access expression: `in[i]`, `*p`, `p->x`, `__ldg(p + i)`
  std::string function;             // the function the expression is written in
  std::string kernel;               // the kernel analysed, with template arguments
  std::vector<Location> call_chain; // call sites from the kernel down to `function`
  bool is_store = false;
  bool is_atomic = false;
  MemorySpace space = MemorySpace::Unknown;
  std::string base_name;            // `in`, `tile`, `args.x`
  std::string type_name;            // the accessed type as written: `float4`
  std::string field_of;             // `Particle` when the access is a field of a struct in memory
  // For a field: which element it belongs to (the same string for `p[i].x` and `p[i].y`), where
  // in the element it lies, and the element's alignment (sibling_fields.h merges siblings).
  std::string element_key;
  uint32_t field_offset = 0;
  uint32_t element_align = 0;
  uint32_t element_bytes = 0;
  uint32_t width = 0;               // bytes per lane of one instruction (0: unknown)
  uint32_t element_size = 0;        // sizeof the accessed type (0: dependent)

  // Coalescing (global memory).
  LanePattern pattern = LanePattern::Unknown;
  std::string lane_dimension;             // "threadIdx.x", or "threadIdx.y" when blockDim.x < 32
  std::optional<int64_t> lane_stride;     // bytes between adjacent lanes, when a constant
  bool runtime_stride = false;            // a runtime value multiplies the thread index
  std::string stride_text;                // `ld` (in elements of the access) or `4 * ld` (bytes)
  bool stride_in_elements = false;
  uint32_t sectors = 0;                   // 32-byte sectors of one warp request
  uint32_t ideal_sectors = 0;             // ceil(active lanes * width / 32)
  uint32_t sectors_if_aligned = 0;        // the same with the warp's first address sector-aligned
  uint32_t active_lanes = 32;
  uint32_t window_shift = 0;              // bytes the warp's first address lies past a sector boundary
  bool base_sector_aligned = false;       // the base is known to start on a 32-byte boundary
  std::string gather_index;               // DataDependent: the per-lane loaded index (`ids[i]`)
  bool gather_from_shared = false;        // ... read from shared memory (a value the block computed)
  bool data_branch = false;               // under a branch on loaded data: which lanes run is unknown
  std::string block_shape;                // "blockDim = (16, 16)" when known
  // Row starts (access_warp.h): as a block or loop index with a known coefficient steps through
  // one period of residues, how many steps start the worst warp inside a sector, and the extra
  // sectors summed over the steps.
  uint32_t row_steps = 0;
  uint32_t rows_off_sector = 0;
  uint32_t row_excess_total = 0;
  std::string row_index;                  // `blockIdx.x`
  std::string row_stride_text;            // `C`
  std::optional<int64_t> row_stride;      // 50257
  bool row_stride_in_elements = false;    // row_stride(_text) counts elements of the access, else bytes

  // Bank conflicts (shared memory, shared_banks.h): wavefronts of the worst warp's request, and
  // what the same lanes need without a conflict.
  uint32_t wavefronts = 0;
  uint32_t ideal_wavefronts = 0;
  std::optional<SharedRow> shared_row;    // the array's row, when padding it is a safe edit
  uint32_t loop_vector_width = 0;         // wavefronts counted for the vector an unrolled loop makes (access_warp.h)
  std::string loop_values;                // the loop variables' values the wavefronts were counted at, when not all

  // Out of bounds: the access runs on every thread a rounded-up grid launches (no condition on its
  // path), at element `first thread past the count + past_count` of a kernel parameter.
  std::optional<TailReach> tail;
  std::optional<GuardedOverrun> guarded_overrun;
  std::optional<RowOverrun> row_overrun;
  std::optional<VectorTail> vector_tail;

  // Alignment (vector accesses).
  bool vector_access = false;             // a vector type, or a cast to a more-aligned type
  uint32_t required_alignment = 0;        // bytes
  uint64_t base_alignment = 0;            // bytes; 0 unknown
  AlignmentVerdict alignment = AlignmentVerdict::NotChecked;
  std::string alignment_condition;        // "hidden % 4 == 0"
  std::string broken_by_launch;           // Misaligned: what the launches pass that breaks the condition ("hidden = 1001")
  int64_t misaligned_by = 0;              // for Misaligned with a fixed residue
  bool misaligned_per_thread = false;     // the misalignment varies with the thread index
  std::string alignment_note;             // where a base alignment came from, for the message
};

}  // namespace kl::analyzers
