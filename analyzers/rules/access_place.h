#pragma once
// What the access rules (uncoalesced-access, misaligned-access, bank-conflict) share about the
// place of an access: the key their records merge by (worst_per_key.h), the kernels a place was
// seen in, and the call sites a finding shows as notes.
#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/model/access_record.h"

namespace kl::analyzers {

// An access as written: its file and full range.
using AccessPlace = std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t>;

inline AccessPlace place_of(const MemoryAccess& a) {
  const Range& r = a.location.range;
  return {a.location.file, r.start.line, r.start.column, r.end.line, r.end.column};
}

// Adds the kernel of `a` to the kernels its place was seen in, once.
inline void note_kernel(const MemoryAccess& a, std::vector<std::string>& kernels) {
  if (std::find(kernels.begin(), kernels.end(), a.kernel) == kernels.end()) kernels.push_back(a.kernel);
}

// " (in k)" or " (in k and N more)" when the access is not written in the one kernel it was seen
// in (a helper, or several kernels); empty otherwise.
inline std::string kernels_suffix(const MemoryAccess& a, const std::vector<std::string>& kernels) {
  if (kernels.empty() || (kernels.size() == 1 && kernels.front() == a.function)) return "";
  std::string more = kernels.size() > 1 ? " and " + std::to_string(kernels.size() - 1) + " more" : "";
  return " (in " + kernels.front() + more + ")";
}

// The call sites from the kernel down to the access, as the finding's notes.
inline void add_call_chain(const MemoryAccess& a, Finding& f) {
  for (const auto& site : a.call_chain) f.notes.push_back({site, "called from here"});
}

}  // namespace kl::analyzers
