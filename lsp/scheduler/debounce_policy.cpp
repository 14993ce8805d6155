#include "lsp/scheduler/debounce_policy.h"

#include <algorithm>
#include <vector>

namespace kl::lsp {

void AnalysisHistory::record(double milliseconds) {
  recent_.push_back(milliseconds);
  if (recent_.size() > kCapacity) recent_.pop_front();
}

std::chrono::milliseconds DebouncePolicy::compute(const AnalysisHistory& history) const {
  if (fixed) return *fixed;
  if (history.recent().empty()) return min;
  std::vector<double> sorted(history.recent().begin(), history.recent().end());
  auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), middle, sorted.end());
  auto wanted = std::chrono::milliseconds(static_cast<long long>(*middle * ratio));
  return std::clamp(wanted, min, max);
}

}  // namespace kl::lsp
