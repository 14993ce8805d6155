#pragma once
// One table of a build.toml seen through its schema: typed reads that report wrong types on the
// value, required keys that report at the table header, and unknown keys that report on the key
// with a "did you mean". The section readers (build_toml_sections.h) are written in terms of it.
#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/project/build_config.h"
#include "analyzers/project/build_toml_problems.h"
#include "analyzers/project/build_toml_ranges.h"

namespace kl::analyzers {

// What every section reader shares while one build.toml is read.
struct BuildTomlContext {
  const TomlRangeMapper& ranges;
  BuildTomlProblems& problems;
  int format_version = 5;                         // 5, 4 (no `edition`) or 3 (pre-v4 keys present)
  FrameworkKind framework = FrameworkKind::None;  // known once the framework section is read
  std::filesystem::path project_dir;              // the build.toml's folder (sources are relative to it)
};

struct StringItem {  // one string of an array, with the place it was written
  std::string text;
  Range range;
};

class TomlSection {
 public:
  // `path` names the table in the schema ("general", "general.cuda", "kernel", "torch");
  // `title` is how messages show it ("[kernel.rmsnorm]").
  TomlSection(const toml::table& table, std::string path, std::string title, Range header,
              BuildTomlContext& context);

  const toml::table& table() const { return *table_; }
  const std::string& path() const { return path_; }
  const std::string& title() const { return title_; }
  Range header() const { return header_; }
  BuildTomlContext& context() const { return *context_; }
  BuildTomlProblems& problems() const { return context_->problems; }

  // Handles a key that is not in the known list but that the caller can explain better than
  // "unknown key" (a key of another backend); returns true when it reported it.
  using KeyExplainer =
      std::function<bool(std::string_view key, Range key_range, const toml::node& value)>;
  // Reports keys that are not in `known`: legacy keys and keys of another edition with what to
  // change, others with the closest known key (and a fix that renames it).
  void check_keys(std::span<const std::string_view> known,
                  const KeyExplainer& explain = nullptr) const;

  // The value of `key`; when the key is missing but a misspelling of it was reported by
  // check_keys ("licence"), the misspelt key's value, so the model still gets it.
  const toml::node* find(std::string_view key) const;
  Range key_range(std::string_view key) const;        // the header when the key is absent
  Range key_value_range(std::string_view key) const;  // `key = value`
  Range range_of(const toml::node& node) const;

  // Reports a missing key at the header; `example` shows a line that would do. A key that is
  // only misspelt counts as present (the misspelling is reported already).
  bool require(std::string_view key, std::string_view example) const;

  // Typed reads: empty when the key is absent, or has the wrong type (reported on the value).
  std::optional<std::string> string(std::string_view key) const;
  std::optional<int64_t> integer(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;
  // An array of strings; entries of another type are reported and left out.
  std::optional<std::vector<StringItem>> string_items(std::string_view key) const;
  std::optional<std::vector<std::string>> strings(std::string_view key) const;
  // A version string such as "12.8": numbers separated by dots, as upstream reads versions.
  std::optional<std::string> version(std::string_view key) const;
  // A sub-table (`[general.cuda]` or an inline table); a value of another type is reported.
  std::optional<TomlSection> subsection(std::string_view key, std::string path) const;

  // Reports that `node` (the value of `what`) should be of type `expected` ("a string").
  void wrong_type(const toml::node& node, std::string_view what, std::string_view expected) const;

 private:
  const toml::table* table_;  // pointers, not references: sections are sorted and copied
  std::string path_;
  std::string title_;
  Range header_;
  BuildTomlContext* context_;
  // Misspelt key -> the known key it was taken for, filled by check_keys.
  mutable std::vector<std::pair<std::string, std::string>> misspellings_;

  toml::table::const_iterator find_entry(std::string_view key) const;
  // The value of `key` when it has type T; `expected` names T in the wrong-type message.
  template <typename T>
  std::optional<T> value_of(std::string_view key, std::string_view expected) const;
};

// "a string", "an integer", ... for messages.
std::string_view toml_type_name(const toml::node& node);
// "a, b, c": a list of keys or values for messages.
std::string joined_list(std::span<const std::string_view> words);
// The header of a table: `[name]` for a standard table, the key for an inline or dotted one.
Range table_header_range(const toml::table& table, const toml::key& key,
                         const TomlRangeMapper& ranges);

}  // namespace kl::analyzers
