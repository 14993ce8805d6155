#pragma once
// A "major.minor" version as the data tables write them: CUDA toolkits ("12.8") and CUTLASS
// releases ("3.5"). Compares as (major, minor).
#include <charconv>
#include <optional>
#include <string_view>

namespace kl::analyzers {

struct MajorMinor {
  int major = 0;
  int minor = 0;
  friend auto operator<=>(const MajorMinor&, const MajorMinor&) = default;
};

// "12.8" -> {12, 8}; nothing unless the text is two non-negative numbers and a dot.
inline std::optional<MajorMinor> parse_major_minor(std::string_view text) {
  MajorMinor version;
  const char* end = text.data() + text.size();
  auto [dot, e1] = std::from_chars(text.data(), end, version.major);
  if (e1 != std::errc() || dot == end || *dot != '.') return std::nullopt;
  auto [rest, e2] = std::from_chars(dot + 1, end, version.minor);
  if (e2 != std::errc() || rest != end || version.major < 0 || version.minor < 0) return std::nullopt;
  return version;
}

}  // namespace kl::analyzers
