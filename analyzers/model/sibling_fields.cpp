#include "analyzers/model/sibling_fields.h"

#include "analyzers/model/access_warp.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace kl::analyzers {

namespace {

// The run [lo, hi) the fields cover, when they cover one without a gap.
std::optional<std::pair<uint32_t, uint32_t>> covered_run(const std::vector<const MemoryAccess*>& fields) {
  std::vector<std::pair<uint32_t, uint32_t>> spans;
  for (const MemoryAccess* f : fields) spans.emplace_back(f->field_offset, f->field_offset + f->width);
  std::sort(spans.begin(), spans.end());
  uint32_t lo = spans.front().first, hi = spans.front().second;
  for (const auto& [a, b] : spans) {
    if (a > hi) return std::nullopt;
    hi = std::max(hi, b);
  }
  return std::make_pair(lo, hi);
}

void rejudge(MemoryAccess& a, uint32_t width) {
  if (a.pattern != LanePattern::Estimated || !a.lane_stride || a.runtime_stride) return;
  uint32_t lanes = a.active_lanes ? a.active_lanes : 32;
  a.width = width;
  a.sectors_if_aligned = sectors_for_stride(lanes, *a.lane_stride, width);
  a.sectors = std::max(a.sectors, a.sectors_if_aligned);
  a.ideal_sectors = (lanes * width + 31) / 32;
  if (a.sectors_if_aligned <= a.ideal_sectors) a.sectors = a.sectors_if_aligned;
}

}  // namespace

void merge_sibling_fields(std::vector<MemoryAccess>& records, size_t begin) {
  std::map<std::pair<std::string, bool>, std::vector<MemoryAccess*>> elements;
  for (size_t i = begin; i < records.size(); ++i) {
    MemoryAccess& a = records[i];
    if (a.element_key.empty() || a.is_atomic || a.space != MemorySpace::Global || a.width == 0) continue;
    elements[{a.element_key, a.is_store}].push_back(&a);
  }
  for (auto& [key, fields] : elements) {
    std::set<uint32_t> offsets;
    for (const MemoryAccess* f : fields) offsets.insert(f->field_offset);
    if (offsets.size() < 2) continue;
    std::vector<const MemoryAccess*> view(fields.begin(), fields.end());
    auto run = covered_run(view);
    if (!run) continue;
    uint32_t width = run->second - run->first;
    uint32_t align = fields.front()->element_align;
    bool one_instruction = (width == 8 || width == 16) && run->first % width == 0 && align >= width;
    if (!one_instruction) continue;
    for (MemoryAccess* f : fields) rejudge(*f, width);
  }
}

}  // namespace kl::analyzers
