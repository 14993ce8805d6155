#pragma once
// How long to wait after an edit before analysing, so that a burst of keystrokes costs one
// analysis. Adaptive, as clangd's: the median of the document's recent re-analysis times (what
// the scheduler records: an edit's time to its first result), clamped to [min, max] (50–500 ms
// by default); a fixed value replaces it (benchmarks and tests set 0).
// Value types, pure functions; no clock inside.
#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>

namespace kl::lsp {

class AnalysisHistory {
 public:
  static constexpr size_t kCapacity = 8;
  void record(double milliseconds);
  const std::deque<double>& recent() const { return recent_; }

 private:
  std::deque<double> recent_;
};

struct DebouncePolicy {
  std::chrono::milliseconds min{50};
  std::chrono::milliseconds max{500};
  double ratio = 1.0;
  std::optional<std::chrono::milliseconds> fixed;

  std::chrono::milliseconds compute(const AnalysisHistory& history) const;
};

}  // namespace kl::lsp
