#pragma once
// Turns toml++ source regions (1-based lines, 1-based columns counted in code points) into the
// 0-based line / UTF-8 byte column `Range` of finding.h. Built once per build.toml text.
#include <toml++/toml.h>

#include <string_view>

#include "analyzers/finding.h"
#include "support/line_index.h"

namespace kl::analyzers {

class TomlRangeMapper {
 public:
  explicit TomlRangeMapper(std::string_view text);  // `text` must outlive the mapper

  Position position(const toml::source_position& position) const;
  Range range(const toml::source_region& region) const;
  // From the start of `first` to the end of `last` (e.g. a whole `key = value` line).
  Range span(const toml::source_region& first, const toml::source_region& last) const;
  // The end of `line`'s text (before its line ending).
  Position end_of_line(uint32_t line) const;
  uint32_t line_count() const { return lines_.line_count(); }

 private:
  std::string_view text_;
  LineIndex lines_;
};

}  // namespace kl::analyzers
