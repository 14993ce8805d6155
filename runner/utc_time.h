#pragma once
// Times as people and files read them, always in UTC: build results, report dates, history file
// names, lenses ("the 08:10 UTC build").
#include <chrono>
#include <string>

namespace kl::runner {

// strftime's `pattern` applied to `when` in UTC.
std::string format_utc(std::chrono::system_clock::time_point when, const char* pattern);

// "2026-12-02T08:10:00Z"
inline std::string utc_timestamp(std::chrono::system_clock::time_point when) {
  return format_utc(when, "%Y-%m-%dT%H:%M:%SZ");
}

}  // namespace kl::runner
