#include "analyzers/project/capability.h"

#include <cctype>

namespace kl::analyzers {

std::string Capability::text() const {
  std::string s = std::to_string(major) + "." + std::to_string(minor);
  if (variant == ArchVariant::Specific) s += "a";
  if (variant == ArchVariant::Family) s += "f";
  if (ptx) s += "+PTX";
  return s;
}

static std::string suffix(ArchVariant v) {
  return v == ArchVariant::Specific ? "a" : v == ArchVariant::Family ? "f" : "";
}

std::string Capability::sm_name() const { return "sm_" + std::to_string(number()) + suffix(variant); }
std::string Capability::compute_name() const {
  return "compute_" + std::to_string(number()) + suffix(variant);
}
std::string Capability::gencode() const {
  return "-gencode=arch=" + compute_name() + ",code=" + sm_name();
}

std::optional<Capability> parse_capability(std::string_view text) {
  Capability c;
  size_t i = 0;
  auto read_int = [&](int& out) {
    size_t start = i;
    int value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      value = value * 10 + (text[i] - '0');
      if (value > 1000) return false;
      ++i;
    }
    out = value;
    return i > start;
  };
  if (!read_int(c.major)) return std::nullopt;
  if (i >= text.size() || text[i] != '.') return std::nullopt;
  ++i;
  if (!read_int(c.minor) || c.minor > 9) return std::nullopt;
  if (i < text.size() && (text[i] == 'a' || text[i] == 'f')) {
    c.variant = text[i] == 'a' ? ArchVariant::Specific : ArchVariant::Family;
    ++i;
  }
  if (text.substr(i) == "+PTX") {
    c.ptx = true;
    i = text.size();
  }
  if (i != text.size()) return std::nullopt;
  return c;
}

}  // namespace kl::analyzers
