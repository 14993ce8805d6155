#include "analyzers/pipeline/coverage.h"

#include <map>
#include <string_view>
#include <tuple>

namespace kl::analyzers {
namespace {

// `scale<float, 4>` → `scale`: MemoryAccess::kernel names the instantiation analysed,
// KernelInfo::name the kernel as written.
std::string_view written_name(std::string_view analysed) { return analysed.substr(0, analysed.find('<')); }

bool contains(const Range& outer, const Position& p) { return !(p < outer.start) && !(outer.end < p); }

// Where an access is written in its kernel's body: the expression itself, or, inside a
// helper, the kernel's call that leads there.
const Location& place_in_kernel(const MemoryAccess& a) {
  return a.call_chain.empty() ? a.location : a.call_chain.front();
}

// Index into facts.kernels of the kernel an access record belongs to, or -1.
int kernel_of(const MemoryAccess& a, const std::vector<KernelInfo>& kernels) {
  std::string_view name = written_name(a.kernel);
  const Location& place = place_in_kernel(a);
  int by_name = -1, matches = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelInfo& k = kernels[i];
    if (k.name != name) continue;
    if (k.location.file == place.file && contains(k.body_range, place.range.start)) return static_cast<int>(i);
    if (matches++ == 0) by_name = static_cast<int>(i);
  }
  // A lone kernel of that name: the access is its (a macro may place the record elsewhere).
  return matches == 1 ? by_name : -1;
}

// One access as written: where it is and whether it reads or writes.
using AccessKey = std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t, bool>;

AccessKey key_of(const MemoryAccess& a) {
  const Range& r = a.location.range;
  return {a.location.file, r.start.line, r.start.column, r.end.line, r.end.column, a.is_store};
}

// Whether the model knew how this record's address spreads over a warp's lanes: sectors
// computed, a broadcast, one lane, or a gather through an index it names. Not: it lost track
// (Unknown), or the address varies per lane through something it does not model (`(t * 7) ^ 5`,
// a call it cannot see into), which the estimator reports as DataDependent with no index.
bool pattern_known(const MemoryAccess& a) {
  if (a.pattern == LanePattern::Unknown) return false;
  if (a.pattern == LanePattern::DataDependent) return !a.gather_index.empty();
  return true;
}

// The records of one kernel's accesses: per access, whether any of its records was judged.
using KernelAccesses = std::map<AccessKey, bool>;

void count_into(const KernelAccesses& accesses, KernelCoverage& out) {
  for (const auto& [key, judged] : accesses) {
    if (std::get<5>(key)) ++out.global_stores;
    else ++out.global_loads;
    if (!judged) ++out.unjudged;
  }
}

}  // namespace

// A shared access's banks and races are known from its lanes' relative addresses: not through a
// runtime stride (unless every launch in the file fixes it), and not through a gather.
bool shared_pattern_known(const MemoryAccess& a) {
  return pattern_known(a) && (!a.runtime_stride || a.lane_stride) && a.pattern != LanePattern::DataDependent;
}

void count_shared_into(const KernelAccesses& accesses, KernelCoverage& out) {
  for (const auto& [key, judged] : accesses) {
    ++out.shared_accesses;
    if (!judged) ++out.shared_unjudged;
  }
}

std::vector<KernelCoverage> coverage_of(const UnitFacts& facts) {
  std::vector<KernelAccesses> per_kernel(facts.kernels.size()), shared_per_kernel(facts.kernels.size());
  std::map<std::string, KernelAccesses, std::less<>> unmatched;  // by written name
  for (const MemoryAccess& a : facts.accesses) {
    if (a.space != MemorySpace::Global && a.space != MemorySpace::Shared) continue;
    bool shared = a.space == MemorySpace::Shared;
    int index = kernel_of(a, facts.kernels);
    if (shared && index < 0) continue;  // counted per kernel as written only
    KernelAccesses& accesses = shared ? shared_per_kernel[index]
                               : index >= 0 ? per_kernel[index]
                                            : unmatched[std::string(written_name(a.kernel))];
    bool& judged = accesses.try_emplace(key_of(a), false).first->second;
    judged = judged || (shared ? shared_pattern_known(a) : pattern_known(a));
  }

  std::vector<KernelCoverage> out;
  out.reserve(facts.kernels.size() + unmatched.size());
  for (size_t i = 0; i < facts.kernels.size(); ++i) {
    KernelCoverage c;
    c.name = facts.kernels[i].qualified_name.empty() ? facts.kernels[i].name : facts.kernels[i].qualified_name;
    c.location = facts.kernels[i].location;
    count_into(per_kernel[i], c);
    count_shared_into(shared_per_kernel[i], c);
    // Accesses recorded in another configuration's parse mean code there.
    c.has_code = facts.kernels[i].has_code || c.global_accesses() > 0;
    out.push_back(std::move(c));
  }
  for (const auto& [name, accesses] : unmatched) {
    KernelCoverage c;
    c.name = name;
    count_into(accesses, c);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace kl::analyzers
