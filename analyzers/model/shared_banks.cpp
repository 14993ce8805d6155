#include "analyzers/model/shared_banks.h"

#include <algorithm>
#include <set>

namespace kl::analyzers {

uint32_t bank_wavefronts(const std::vector<int64_t>& addresses, const std::vector<int>& lanes, uint32_t width,
                         uint32_t& ideal) {
  constexpr int kBanks = 32;
  uint32_t words_per_lane = std::max<uint32_t>(1, (width + 3) / 4);
  int lanes_per_phase = width <= 4 ? 32 : static_cast<int>(std::max<uint32_t>(1, 128 / width));
  uint32_t total = 0;
  ideal = 0;
  // words[bank] of the phase being counted; the phases follow the lanes in order.
  std::vector<std::set<int64_t>> words(kBanks);
  int phase = -1;
  auto close_phase = [&] {
    size_t most = 0;
    for (auto& bank : words) {
      most = std::max(most, bank.size());
      bank.clear();
    }
    if (most > 0) {
      total += static_cast<uint32_t>(most);
      ++ideal;
    }
  };
  for (size_t i = 0; i < addresses.size() && i < lanes.size(); ++i) {
    int p = lanes[i] / lanes_per_phase;
    if (p != phase) {
      close_phase();
      phase = p;
    }
    int64_t first_word = addresses[i] >= 0 ? addresses[i] / 4 : -((-addresses[i] + 3) / 4);
    for (uint32_t k = 0; k < words_per_lane; ++k) {
      int64_t word = first_word + k;
      words[static_cast<size_t>(((word % kBanks) + kBanks) % kBanks)].insert(word);
    }
  }
  close_phase();
  return total;
}

}  // namespace kl::analyzers
