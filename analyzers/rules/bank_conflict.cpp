// bank-conflict: a shared-memory load or store whose warp request needs more bank wavefronts
// than its bytes do, because lanes hit the same 4-byte bank at different addresses. The access
// model simulates one warp request per access and counts its wavefronts (shared_banks.h); the
// count is what Nsight Compute reports per line as "L1 Wavefronts Shared" against
// "L1 Wavefronts Shared Ideal".
//
// Reported only when the lanes' addresses are known relative to each other: not under a runtime
// stride (`smem[tid * ld]`: the degree depends on ld) unless every launch in the file fixes it,
// not for an address the model lost track of or that comes from loaded data, not under a branch
// on loaded data, and not for atomics; the exception is an atomic whose address is the lane's
// loaded data (a histogram's bin), reported as a conflict whose degree is the data's. Nor when
// the access has siblings that fill its stride: `s[2 * t]` next to `s[2 * t + 1]` is compiled into
// one 8-byte access per lane (measured: cuda-samples' fastWalshTransform, no excess wavefronts),
// which no bank conflicts. An unrolled loop over a lane's consecutive elements (`c_rd[k]` for
// k < 4) is judged as the vector access nvcc makes of it (the model's loop_vector_width).
#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

#include "analyzers/rules/access_place.h"
#include "analyzers/rules/rule.h"
#include "analyzers/rules/rule_input.h"
#include "analyzers/rules/worst_per_key.h"

namespace kl::analyzers {
namespace {
void check_bank_conflict(const SourceInput& input, std::vector<Finding>& out);
}  // namespace

extern const Rule kBankConflictRule;  // listed in rule_catalog.cpp
const Rule kBankConflictRule = {
    .id = "bank-conflict",
    .default_severity = Severity::Warning,
    .summary = "a shared-memory load/store whose lanes hit the same bank at different addresses",
    .guidance_page = "references/rules/bank-conflict.md",
    .source_check = &check_bank_conflict,
};

namespace {

bool conflicted(const MemoryAccess& a) {
  return a.space == MemorySpace::Shared && a.width > 0 && a.pattern == LanePattern::Estimated &&
         (!a.runtime_stride || a.lane_stride) && !a.data_branch && !a.is_atomic && a.ideal_wavefronts > 0 &&
         a.wavefronts > a.ideal_wavefronts;
}

// A shared atomic whose address each lane computes from input data it loaded from global memory
// (a histogram's bin): lanes whose values fall in one bank at different addresses are served one
// after another, while lanes with equal values share a wavefront. Measured (bank_loops.cu on an
// H100): random bytes into 256 bins take 3.15 wavefronts a request, every lane on one bin 1.0,
// runs of four lanes per bin 1.0. Values the block computed in shared memory (a scan's offsets)
// are usually ordered across lanes, equal or consecutive, and are left out.
bool data_dependent_atomic(const MemoryAccess& a) {
  return a.space == MemorySpace::Shared && a.is_atomic && a.pattern == LanePattern::DataDependent &&
         !a.gather_index.empty() && !a.gather_from_shared && a.active_lanes > 1 && !a.data_branch;
}

int64_t excess(const MemoryAccess& a) { return int64_t{a.wavefronts} - a.ideal_wavefronts; }

// Accesses nvcc may fuse with `a` into one vector access: the same kind of access to the same
// array with the same lane stride and width, in the same function a few lines away.
bool has_fusable_siblings(const MemoryAccess& a, const std::vector<MemoryAccess>& all) {
  if (!a.lane_stride || a.width == 0 || a.width >= 16) return false;
  int64_t stride = *a.lane_stride < 0 ? -*a.lane_stride : *a.lane_stride;
  if (stride % a.width != 0) return false;
  int64_t needed = stride / a.width;  // accesses that together cover the stride
  if (needed < 2 || needed * a.width > 16) return false;
  int64_t found = 1;
  for (const MemoryAccess& b : all) {
    if (&b == &a || b.space != MemorySpace::Shared || b.is_store != a.is_store || b.base_name != a.base_name ||
        b.function != a.function || b.kernel != a.kernel || b.width != a.width || b.lane_stride != a.lane_stride)
      continue;
    if (b.location.range.start == a.location.range.start) continue;
    int64_t lines = int64_t{b.location.range.start.line} - a.location.range.start.line;
    if (lines >= -4 && lines <= 4) ++found;
  }
  return found >= needed;
}

std::string lanes_apart(const MemoryAccess& a) {
  if (!a.lane_stride) return "";
  int64_t s = *a.lane_stride < 0 ? -*a.lane_stride : *a.lane_stride;
  std::string out = "adjacent lanes (" + a.lane_dimension + ") are ";
  if (a.runtime_stride) {
    std::string unit = a.stride_in_elements ? " elements" : " bytes";
    int64_t value = a.stride_in_elements && a.element_size > 0 ? s / a.element_size : s;
    return out + "`" + a.stride_text + "`" + unit + " apart (a runtime value; " + std::to_string(value) +
           " at the launches in this file)";
  }
  out += std::to_string(s) + " bytes apart";
  if (a.element_size > 1 && s % a.element_size == 0 && s / a.element_size > 1)
    out += " (" + std::to_string(s / a.element_size) + " elements)";
  return out;
}

// The usual fix for the usual cause: a stride that is a multiple of the 128 bytes of a bank round
// (a column of an unpadded [32][32] tile) puts every lane in one bank.
std::string fix_hint(const MemoryAccess& a) {
  bool bank_period = a.lane_stride && *a.lane_stride != 0 && *a.lane_stride % 128 == 0;
  std::string pad = a.element_size > 0 && a.element_size <= 4
                        ? "pad each row by one element (`[32][33]` for a 32x32 tile of 4-byte values)"
                        : "pad each row by 4 bytes' worth of elements";
  if (bank_period)
    return "The stride is a multiple of 128 bytes, so the lanes share one bank: " + pad +
           ", or swizzle the column (`tile[row][col ^ row]`) so that a column's elements fall in different banks.";
  return "Make adjacent lanes use adjacent 4-byte words (swap the index roles), " + pad +
         ", or swizzle the index with an XOR of the row.";
}

// `[TILE][TILE]` → `[TILE][TILE + 1]`, when the lanes walk a column (their stride is the row)
// and a row is a whole number of bank rounds: one more element per row puts each row's column
// in the next bank. Only for arrays the model found safe to pad (shared_rows.h).
std::optional<Fix> padding_fix(const MemoryAccess& a) {
  if (!a.shared_row || !a.lane_stride) return std::nullopt;
  const SharedRow& row = *a.shared_row;
  uint64_t stride = static_cast<uint64_t>(*a.lane_stride < 0 ? -*a.lane_stride : *a.lane_stride);
  if (stride != row.bytes || row.bytes % 128 != 0) return std::nullopt;
  bool literal = !row.size_text.empty() && row.size_text.size() < 9 &&
                 row.size_text.find_first_not_of("0123456789") == std::string::npos;
  bool simple = row.size_text.find_first_of("+-*/%<>?:&|^ ") == std::string::npos;
  std::string padded = literal ? std::to_string(std::stoll(row.size_text) + 1)
                               : (simple ? row.size_text : "(" + row.size_text + ")") + " + 1";
  Fix fix;
  fix.title = "Pad each row of `" + a.base_name + "` by one element ([" + padded + "])";
  fix.edits.push_back({row.size.file, row.size.range, padded});
  return fix;
}

Finding make(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  uint32_t degree = (a.wavefronts + a.ideal_wavefronts - 1) / a.ideal_wavefronts;
  std::string what = a.is_store ? "store to" : "load from";
  std::string msg = "shared-memory bank conflict on the " + what + " `" + a.base_name + "`";
  std::string apart = lanes_apart(a);
  uint32_t width = a.loop_vector_width ? a.loop_vector_width : a.width;
  if (!apart.empty()) msg += ": " + apart + " for " + std::to_string(width) + "-byte accesses";
  if (a.loop_vector_width) msg += " (the unrolled loop's " + std::to_string(a.width) + "-byte elements, one vector per lane)";
  if (!a.block_shape.empty() && a.lane_dimension != "threadIdx.x") msg += " (with " + a.block_shape + ")";
  if (!a.loop_values.empty()) msg += ", " + a.loop_values;
  msg += "; each warp request takes " + std::to_string(a.wavefronts) + " wavefronts where " +
         std::to_string(a.ideal_wavefronts) + " would do (" + std::to_string(degree) + "-way). " + fix_hint(a);
  msg += kernels_suffix(a, kernels);
  Finding f = kBankConflictRule.finding(a.location, std::move(msg));
  add_call_chain(a, f);
  if (auto fix = padding_fix(a)) f.fixes.push_back(std::move(*fix));
  return f;
}

Finding make_data_dependent(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  std::string msg = "shared-memory atomic on `" + a.base_name + "` at an address each lane computes from `" +
                    a.gather_index +
                    "`: lanes whose values fall in the same bank at different addresses are served one "
                    "wavefront after another (equal values share one), so each warp request takes as many "
                    "wavefronts as the busiest bank has distinct addresses: measured 3.2 for uniformly random "
                    "bytes into 256 bins, where 1 would do. The degree is the data's: spread the bins over the "
                    "banks (a per-warp copy of the array, or a bin-to-bank swizzle), or combine equal "
                    "values in the warp first (`__match_any_sync`, then one atomic per distinct value).";
  msg += kernels_suffix(a, kernels);
  Finding f = kBankConflictRule.finding(a.location, std::move(msg));
  add_call_chain(a, f);
  return f;
}

// One finding per access place, from its worst record across the target archs' parses and the
// kernels that reach it.
void check_bank_conflict(const SourceInput& input, std::vector<Finding>& out) {
  auto worse = [](const MemoryAccess& a, const MemoryAccess& b) { return excess(a) > excess(b); };
  WorstPerKey<AccessPlace, MemoryAccess, std::vector<std::string>> places;  // extra: the kernels
  WorstPerKey<AccessPlace, MemoryAccess, std::vector<std::string>> data_places;
  auto first = [](const MemoryAccess&, const MemoryAccess&) { return false; };
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const auto& a : target.facts->accesses) {
      if (data_dependent_atomic(a)) note_kernel(a, data_places.offer(place_of(a), a, first).extra);
      if (!conflicted(a) || has_fusable_siblings(a, target.facts->accesses)) continue;
      note_kernel(a, places.offer(place_of(a), a, worse).extra);
    }
  }
  std::set<AccessPlace> reported;
  for (const auto& entry : places.entries()) {
    reported.insert(place_of(*entry.worst));
    out.push_back(make(*entry.worst, entry.extra));
  }
  for (const auto& entry : data_places.entries())
    if (!reported.count(place_of(*entry.worst))) out.push_back(make_data_dependent(*entry.worst, entry.extra));
}

}  // namespace
}  // namespace kl::analyzers
