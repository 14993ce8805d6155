// uncoalesced-access: a global load or store whose lanes, adjacent in a warp, touch addresses
// further apart than the access size, so that a warp request fetches more 32-byte sectors than
// its bytes need. The access model simulates one warp request per access (access_warp.h); the
// rule reports the accesses whose sector count exceeds the ideal even when the warp's first
// address sits on a sector boundary (a lane stride problem, not a misaligned row start), and
// those whose stride is a runtime value multiplying the thread index. Broadcasts, single-lane
// accesses and data-dependent gathers are not reported.
#include <algorithm>
#include <map>

#include "analyzers/rules/rule_catalog.h"
#include "analyzers/rules/rule_input.h"

namespace kl::analyzers {
namespace {

int64_t excess(const MemoryAccess& a) { return int64_t{a.sectors_if_aligned} - a.ideal_sectors; }

bool reportable(const MemoryAccess& a) {
  if (a.space != MemorySpace::Global || a.pattern != LanePattern::Estimated || a.width == 0) return false;
  return excess(a) > 0;
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

Finding make(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  Finding f;
  f.rule_id = std::string(kUncoalescedAccess);
  f.severity = Severity::Warning;
  f.location = a.location;
  std::string what = a.is_atomic ? "atomic on" : a.is_store ? "store to" : "load from";
  std::string msg = "uncoalesced global " + what + " `" + a.base_name + "`: " + describe_stride(a) + " for " +
                    std::to_string(a.width) + "-byte accesses";
  if (!a.block_shape.empty() && a.lane_dimension != "threadIdx.x") msg += " (with " + a.block_shape + ")";
  uint32_t sectors = std::max(a.sectors_if_aligned, a.sectors);
  msg += "; each warp touches " + std::to_string(sectors) + " sectors where " + std::to_string(a.ideal_sectors) +
         " would do";
  if (a.ideal_sectors > 0 && sectors >= 2 * a.ideal_sectors)
    msg += " (" + std::to_string(sectors / a.ideal_sectors) + "x the memory traffic)";
  if (a.runtime_stride && !a.lane_stride) msg += ", unless the stride is 1 at run time";
  msg += ". " + fix_hint(a);
  if (kernels.size() > 1 || (!kernels.empty() && kernels.front() != a.function))
    msg += " (in " + kernels.front() + (kernels.size() > 1 ? " and " + std::to_string(kernels.size() - 1) + " more" : "") + ")";
  f.message = std::move(msg);
  f.help_uri = rule_help_uri(kUncoalescedAccess);
  for (const auto& site : a.call_chain) f.notes.push_back({site, "called from here"});
  return f;
}

}  // namespace

void check_uncoalesced_access(const RuleInput& input, std::vector<Finding>& out) {
  struct Group {
    const MemoryAccess* worst = nullptr;
    std::vector<std::string> kernels;
  };
  std::map<std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t>, Group> groups;
  std::vector<std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t>> order;
  for (const auto& target : input.targets) {
    if (!target.facts) continue;
    for (const auto& a : target.facts->accesses) {
      if (!reportable(a)) continue;
      auto key = std::make_tuple(a.location.file, a.location.range.start.line, a.location.range.start.column,
                                 a.location.range.end.line, a.location.range.end.column);
      auto [it, inserted] = groups.try_emplace(key);
      if (inserted) order.push_back(key);
      Group& g = it->second;
      if (!g.worst || excess(a) > excess(*g.worst)) g.worst = &a;
      if (std::find(g.kernels.begin(), g.kernels.end(), a.kernel) == g.kernels.end()) g.kernels.push_back(a.kernel);
    }
  }
  for (const auto& key : order) {
    const Group& g = groups.at(key);
    out.push_back(make(*g.worst, g.kernels));
  }
}

}  // namespace kl::analyzers
