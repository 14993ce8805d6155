#include "analyzers/project/build_toml_spelling.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/project/build_toml_schema.h"
#include "support/text.h"

namespace kl::analyzers {
namespace {

std::string normalised(std::string_view word) {
  std::string out = kl::ascii_lower(word);
  for (char& c : out)
    if (c == '_') c = '-';
  return out;
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance; three rows are enough.
  std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string_view> closest_match(std::string_view word,
                                              std::span<const std::string_view> candidates) {
  const std::string wanted = normalised(word);
  for (const auto& [synonym, key] : BuildTomlSchema::builtin().synonyms()) {
    if (wanted != synonym) continue;
    for (std::string_view candidate : candidates)
      if (candidate == key) return candidate;
  }
  // Short words tolerate one edit; longer ones about one edit per four letters.
  const size_t allowed = std::max<size_t>(1, (wanted.size() + 1) / 4);
  std::optional<std::string_view> best;
  size_t best_distance = allowed + 1;
  for (std::string_view candidate : candidates) {
    size_t distance = edit_distance(wanted, normalised(candidate));
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

}  // namespace kl::analyzers
