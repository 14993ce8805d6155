#pragma once
// "Did you mean": the closest known word to a misspelt build.toml key or value.
#include <optional>
#include <span>
#include <string_view>

namespace kl::analyzers {

// Edit distance with adjacent transpositions counted as one edit ("scr" -> "src" is 1).
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate a user most likely meant by `word`, or nothing when none is close enough.
// `_` and `-` and letter case count as the same (build.toml keys are kebab-case, but people
// write `cuda_capabilities`), and a few common synonyms map to their key (`dependencies`): the
// build.toml schema's [spelling] synonyms, which the skill's check_build_toml.py reads too.
std::optional<std::string_view> closest_match(std::string_view word,
                                              std::span<const std::string_view> candidates);

}  // namespace kl::analyzers
