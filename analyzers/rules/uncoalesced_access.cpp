// uncoalesced-access: a global load or store whose warp request fetches more 32-byte sectors
// than its bytes need. The access model simulates one warp request per access (access_warp.h);
// the rule reports three causes, each measurable as Nsight Compute's "L2 Theoretical Sectors
// Global Excessive" on the line:
//   - a lane stride: adjacent lanes further apart than the access size (or a runtime value
//     multiplying the thread index), even with the warp's first address on a sector boundary;
//   - a shifted window: contiguous lanes whose first address provably lies inside a sector of a
//     sector-aligned base (`in[i + 1]`), so the warp straddles one sector more than it needs;
//   - row starts off a sector: contiguous lanes, but the rows (blocks, loop steps) begin at a
//     pitch known at every launch that is not a multiple of 32 bytes (`x[row * C + i]` launched
//     with C = 50257), so most rows' warps straddle one sector more than they need;
//   - a gather: the lane's address comes from an index the lane loaded itself (`table[ids[i]]`),
//     so adjacent lanes touch unrelated sectors unless the indices happen to be consecutive.
// Broadcasts, single-lane accesses, atomics on gathered addresses, accesses under a branch on
// data the lanes loaded (how many lanes take it is unknown) and addresses the model lost track
// of are not reported.
#include <algorithm>
#include <tuple>

#include "analyzers/rules/access_place.h"
#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"
#include "analyzers/rules/worst_per_key.h"

namespace kl::analyzers {
namespace {
void check_uncoalesced_access(const SourceInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kUncoalescedAccessRule;  // listed in rule_catalog.cpp
const Rule kUncoalescedAccessRule = {
    .id = "uncoalesced-access",
    .default_severity = Severity::Warning,
    .summary = "a global load/store whose address stride between adjacent lanes exceeds its access size",
    .guidance_page = "references/rules/uncoalesced-access.md",
    .source_check = &check_uncoalesced_access,
};

namespace {

int64_t excess(const MemoryAccess& a) { return int64_t{a.sectors_if_aligned} - a.ideal_sectors; }

enum class Cause { None, Stride, ShiftedWindow, RowStarts, Gather };

Cause cause_of(const MemoryAccess& a) {
  if (a.space != MemorySpace::Global || a.width == 0) return Cause::None;
  // Under a branch on loaded data, the lanes that run may be a whole warp or the one lane whose
  // key matched: a verdict computed for 32 lanes would be a guess.
  if (a.data_branch) return Cause::None;
  if (a.pattern == LanePattern::DataDependent)
    return !a.gather_index.empty() && !a.is_atomic ? Cause::Gather : Cause::None;
  if (a.pattern != LanePattern::Estimated) return Cause::None;
  if (excess(a) > 0) return Cause::Stride;
  // Only for naturally aligned accesses: a vector access shifted by less than its width is a
  // misaligned-access (it faults), not a coalescing problem. And only when the extra sector is
  // at least an eighth of the request: a float4 warp one vector off (17 sectors for 16) is not
  // worth a warning.
  if (a.base_sector_aligned && a.sectors > a.ideal_sectors && a.window_shift % a.width == 0 &&
      8 * (int64_t{a.sectors} - a.ideal_sectors) >= a.ideal_sectors)
    return Cause::ShiftedWindow;
  // The same eighth, averaged over the row starts the launches' pitch produces.
  // A vector access whose rows start off its own width faults: misaligned-access says so.
  bool faults = a.vector_access && (a.alignment == AlignmentVerdict::Misaligned ||
                                    a.alignment == AlignmentVerdict::Conditional);
  if (!faults && a.base_sector_aligned && a.row_steps > 0 && a.rows_off_sector > 0 &&
      8 * int64_t{a.row_excess_total} >= int64_t{a.ideal_sectors} * a.row_steps)
    return Cause::RowStarts;
  return Cause::None;
}

// Orders the records of one location: a stride beats a shifted window beats a gather, then the
// larger waste.
int64_t severity_key(const MemoryAccess& a) {
  switch (cause_of(a)) {
    case Cause::Stride: return 3'000'000 + excess(a);
    case Cause::ShiftedWindow: return 2'000'000 + int64_t{a.sectors} - a.ideal_sectors;
    case Cause::RowStarts: return 1'500'000 + a.row_excess_total;
    case Cause::Gather: return 1'000'000;
    case Cause::None: break;
  }
  return 0;
}

std::string plural(int64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::string describe_stride(const MemoryAccess& a) {
  std::string lanes = "adjacent lanes (" + a.lane_dimension + ")";
  if (a.runtime_stride) {
    std::string unit = a.stride_in_elements ? " elements" : " bytes";
    std::string known;
    if (a.lane_stride) {
      int64_t v = a.stride_in_elements && a.element_size > 0 ? *a.lane_stride / a.element_size : *a.lane_stride;
      known = "; " + std::to_string(v) + " at the launches in this file";
    }
    return lanes + " are `" + a.stride_text + "`" + unit + " apart (a runtime value" + known + ")";
  }
  if (a.lane_stride) {
    int64_t s = *a.lane_stride < 0 ? -*a.lane_stride : *a.lane_stride;
    std::string out = lanes + " are " + plural(s, "byte") + " apart";
    if (a.field_of.empty() && a.element_size > 0 && s % a.element_size == 0 && s / a.element_size > 1)
      out += " (" + std::to_string(s / a.element_size) + " elements of " + std::to_string(a.element_size) + " bytes)";
    return out;
  }
  return "the lanes of a warp are spread out";
}

std::string fix_hint(const MemoryAccess& a) {
  if (!a.field_of.empty())
    return "Each lane uses " + std::to_string(a.width) + " bytes of its `" + a.field_of +
           "`: store the fields as separate arrays (structure of arrays) so that adjacent lanes read adjacent "
           "values, or load the whole struct as one aligned vector (`__align__(16)`) and use every part of it.";
  return "Make threadIdx.x walk the contiguous (innermost) dimension by swapping the index roles; if both a "
         "row-wise and a column-wise side are needed (a transpose), stage the tile through shared memory: load "
         "it coalesced, __syncthreads(), read it transposed from shared memory; or let each lane move a vector "
         "(float4) of contiguous elements.";
}

std::string what_of(const MemoryAccess& a) {
  return std::string(a.is_atomic ? "atomic on" : a.is_store ? "store to" : "load from");
}

std::string stride_message(const MemoryAccess& a) {
  std::string msg = "uncoalesced global " + what_of(a) + " `" + a.base_name + "`: " + describe_stride(a) + " for " +
                    std::to_string(a.width) + "-byte accesses";
  if (!a.block_shape.empty() && a.lane_dimension != "threadIdx.x") msg += " (with " + a.block_shape + ")";
  uint32_t sectors = std::max(a.sectors_if_aligned, a.sectors);
  msg += "; each warp touches " + std::to_string(sectors) + " sectors where " + std::to_string(a.ideal_sectors) +
         " would do";
  if (a.ideal_sectors > 0 && sectors >= 2 * a.ideal_sectors)
    msg += " (" + std::to_string(sectors / a.ideal_sectors) + "x the memory traffic)";
  if (a.runtime_stride && !a.lane_stride) msg += ", unless the stride is 1 at run time";
  return msg + ". " + fix_hint(a);
}

std::string shifted_window_message(const MemoryAccess& a) {
  uint32_t extra = a.sectors - a.ideal_sectors;
  std::string msg = "uncoalesced global " + what_of(a) + " `" + a.base_name + "`: the warp's lanes are contiguous but " +
                    "its first address lies " + std::to_string(a.window_shift) + " bytes past a 32-byte sector " +
                    "boundary, so each warp touches " + std::to_string(a.sectors) + " sectors where " +
                    std::to_string(a.ideal_sectors) + " would do (+" +
                    std::to_string(a.ideal_sectors ? 100 * extra / a.ideal_sectors : 0) + " % traffic).";
  msg += " Shift the index so that each warp starts on a sector (pad rows or the halo to a multiple of " +
         std::to_string(a.width ? 32 / std::min<uint32_t>(a.width, 32) : 8) +
         " elements), or load the tile once, aligned, into shared memory and read the shifted neighbours there.";
  return msg;
}

std::string row_starts_message(const MemoryAccess& a) {
  std::string pitch = "`" + a.row_stride_text + "`";
  if (a.row_stride && a.row_stride_text != std::to_string(*a.row_stride))
    pitch += " (" + std::to_string(*a.row_stride) + " at the launches in this file)";
  std::string unit = a.row_stride_in_elements ? " elements of " + std::to_string(a.width) + " bytes" : " bytes";
  uint32_t average = a.ideal_sectors && a.row_steps ? 100 * a.row_excess_total / (a.ideal_sectors * a.row_steps) : 0;
  uint32_t rows_per = a.row_steps;
  return "uncoalesced global " + what_of(a) + " `" + a.base_name + "`: the lanes are contiguous, but as `" +
         a.row_index + "` steps the warp's first address moves by " + pitch + unit +
         ", not a multiple of a 32-byte sector, so " + std::to_string(a.rows_off_sector) +
         " of every " + std::to_string(rows_per) + " rows start inside a sector and their warps touch one sector more " +
         "than they need (+" + std::to_string(average) + " % traffic on average). Pad the row pitch to a multiple of " +
         std::to_string(a.width ? 32 / std::min<uint32_t>(a.width, 32) : 8) + " elements, or let each row's first " +
         "warp start at the row's aligned floor and mask the lanes before the row.";
}

std::string gather_message(const MemoryAccess& a) {
  uint32_t ideal = a.ideal_sectors ? a.ideal_sectors : (32 * a.width + 31) / 32;
  return "uncoalesced global " + what_of(a) + " `" + a.base_name + "`: each lane's address comes from an index it " +
         "loaded (`" + a.gather_index + "`), so adjacent lanes touch unrelated addresses: up to 32 sectors per warp " +
         "where " + std::to_string(ideal) + " would do, unless the indices are consecutive. Sort or bucket the " +
         "indices so that a warp's lanes read neighbouring data, or, when an index selects a row, let one warp " +
         "take the index and its lanes walk the row.";
}

Finding make(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  std::string msg;
  switch (cause_of(a)) {
    case Cause::ShiftedWindow: msg = shifted_window_message(a); break;
    case Cause::RowStarts: msg = row_starts_message(a); break;
    case Cause::Gather: msg = gather_message(a); break;
    default: msg = stride_message(a); break;
  }
  msg += kernels_suffix(a, kernels);
  Finding f = kUncoalescedAccessRule.finding(a.location, std::move(msg));
  add_call_chain(a, f);
  return f;
}

// One finding per access place (its full range), from its worst record across the target archs'
// parses, naming every kernel the place was seen in.
void check_uncoalesced_access(const SourceInput& input, std::vector<Finding>& out) {
  auto worse = [](const MemoryAccess& a, const MemoryAccess& b) { return severity_key(a) > severity_key(b); };
  WorstPerKey<AccessPlace, MemoryAccess, std::vector<std::string>> places;  // extra: the kernels
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const auto& a : target.facts->accesses) {
      if (cause_of(a) == Cause::None) continue;
      note_kernel(a, places.offer(place_of(a), a, worse).extra);
    }
  }
  for (const auto& place : places.entries()) out.push_back(make(*place.worst, place.extra));
}

}  // namespace
}  // namespace kl::analyzers
