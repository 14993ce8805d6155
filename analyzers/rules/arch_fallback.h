#pragma once
// What code for the archs that lack a feature can say instead, for arch-mismatch's guard fix:
// the `#else` branch of `#if <guard>`. Where the replacement is mechanical (a warp reduction
// `x = __reduce_add_sync(mask, v);` is a five-step shuffle tree on any arch) it is written out;
// otherwise the branch says so and keeps a `#warning`, so that a build for those archs still
// tells the author the code is missing rather than silently doing nothing there.
#include <optional>
#include <string>
#include <string_view>

#include "analyzers/data/feature_table.h"

namespace kl::analyzers {

// The lines of the `#else` branch (each ending in '\n') for the statement `statement` (the whole
// source line of the use), indented like it, and whether they are a working fallback.
struct ArchFallback {
  std::string lines;
  bool working = false;  // false: a TODO and a #warning
};

ArchFallback arch_fallback(const Feature& feature, std::string_view statement);

}  // namespace kl::analyzers
