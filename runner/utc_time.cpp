#include "runner/utc_time.h"

#include <ctime>

namespace kl::runner {

std::string format_utc(std::chrono::system_clock::time_point when, const char* pattern) {
  std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm parts{};
  gmtime_r(&t, &parts);
  char text[64];
  size_t n = std::strftime(text, sizeof text, pattern, &parts);
  return std::string(text, n);
}

}  // namespace kl::runner
