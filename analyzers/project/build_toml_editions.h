#pragma once
// Which build.toml format a key belongs to. Edition 5 is current; v4 (no `edition`) is still
// read, with a warning; v3 and older are rejected upstream ("run kernel-builder update-build"),
// so for each of their keys we say what to write instead. Which keys those are is data (the
// built-in BuildTomlSchema); the messages and fixes are here.
#include <toml++/toml.h>

#include <optional>
#include <string>
#include <string_view>

#include "analyzers/project/build_toml_schema.h"

namespace kl::analyzers {

// The edition the section readers are written for; the schema data must describe the same.
inline constexpr int kCurrentEdition = 5;

// What to do about a key that build.toml v3 and older had and that no longer exists.
struct RemovedKeyAdvice {
  std::string message;
  // New text for the whole `key = value`; an empty string deletes the line. None: no simple fix.
  std::optional<std::string> replacement;
  std::string fix_title;
};

// `path` is the table in the schema ("general", "torch", "kernel").
std::optional<RemovedKeyAdvice> removed_key_advice(std::string_view path, std::string_view key,
                                                   const toml::node& value,
                                                   const toml::table& table);

// True when a file without `edition` uses keys of build.toml v3 or older.
bool has_pre_v4_keys(const toml::table& root);

// A key that only one of the two readable formats has (build_toml_schema.h's EditionKey, from
// the built-in schema), or null.
const EditionKey* find_edition_key(std::string_view path, std::string_view key);
bool edition_accepts(const EditionKey& key, int format_version);
// Why `key` does not belong in a file of the other format, and what to do.
std::string edition_key_message(const EditionKey& key);

}  // namespace kl::analyzers
