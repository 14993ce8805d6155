#pragma once
// Sibling fields read together: `p[i].x` and `p[i].y` of a `float2` are two 4-byte accesses in
// the source, but nvcc loads (or stores) them as one 8-byte access when the element's alignment
// allows it, and Nsight Compute then counts no excessive sectors. The access model records each
// field on its own; this pass finds, among the records of one kernel analysis, the fields of one
// element accessed the same way (same element address, both loads or both stores), and when
// together they cover a naturally aligned 8- or 16-byte run of the element that its alignment
// lets one instruction move, re-judges each of them at that width.
//
// No clang; a pure function of the records.
#include <cstddef>
#include <vector>

#include "analyzers/model/access_record.h"

namespace kl::analyzers {

// Re-judges the records [begin, end) of `records` in place.
void merge_sibling_fields(std::vector<MemoryAccess>& records, size_t begin);

}  // namespace kl::analyzers
