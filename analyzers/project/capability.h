#pragma once
// A CUDA compute capability as build.toml writes it: "8.0", "9.0a" (arch-specific features),
// "10.0f" (family), optionally "+PTX". Parsing never throws; unknown strings are reported by
// the arch-unsupported rule with their location.
#include <optional>
#include <string>
#include <string_view>

namespace kl::analyzers {

enum class ArchVariant { Plain, Specific /* 'a' */, Family /* 'f' */ };

struct Capability {
  int major = 0;
  int minor = 0;
  ArchVariant variant = ArchVariant::Plain;
  bool ptx = false;  // "+PTX": also embed PTX for later GPUs

  int number() const { return major * 10 + minor; }        // 90 for 9.0a
  int cuda_arch_macro() const { return number() * 10; }    // 900, the value of __CUDA_ARCH__
  std::string text() const;                                // "9.0a", "12.1+PTX"
  std::string sm_name() const;                             // "sm_90a"
  std::string compute_name() const;                        // "compute_90a"
  std::string gencode() const;  // -gencode=arch=compute_90a,code=sm_90a
  friend bool operator==(const Capability&, const Capability&) = default;
  friend auto operator<=>(const Capability&, const Capability&) = default;
};

std::optional<Capability> parse_capability(std::string_view text);

}  // namespace kl::analyzers
