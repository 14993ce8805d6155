#include "analyzers/project/build_toml_editions.h"

namespace kl::analyzers {
namespace {

constexpr std::string_view kMigrate =
    "; or run `kernel-builder update-build` to migrate this pre-v4 build.toml";

std::string removed_message(std::string_view key, std::string_view advice) {
  return "`" + std::string(key) + "` was removed: " + std::string(advice) + std::string(kMigrate);
}

// [torch] universal = false: nothing to replace it with, so the line can go.
std::optional<RemovedKeyAdvice> universal_advice(const toml::node& value) {
  const auto* flag = value.as_boolean();
  if (!flag || flag->get()) return std::nullopt;
  return RemovedKeyAdvice{removed_message("universal", "delete `universal = false`"), std::string(),
                          "Delete `universal = false`"};
}

// A kernel's `language`: deleted when `backend` is there, replaced when the language says which.
std::optional<RemovedKeyAdvice> language_advice(const toml::node& value, const toml::table& table) {
  if (table.contains("backend"))
    return RemovedKeyAdvice{
        removed_message("language", "`backend` already says what this kernel is, delete `language`"),
        std::string(), "Delete `language`"};
  const auto* text = value.as_string();
  auto backend = text ? BuildTomlSchema::builtin().backend_of_language(text->get()) : std::nullopt;
  if (!backend) return std::nullopt;
  std::string line = "backend = \"" + std::string(*backend) + "\"";
  return RemovedKeyAdvice{removed_message("language", "use `" + line + "`"), line,
                          "Replace with `" + line + "`"};
}

}  // namespace

std::optional<RemovedKeyAdvice> removed_key_advice(std::string_view path, std::string_view key,
                                                   const toml::node& value,
                                                   const toml::table& table) {
  const PreV4Key* removed = BuildTomlSchema::builtin().find_pre_v4_key(path, key);
  if (!removed) return std::nullopt;
  std::optional<RemovedKeyAdvice> specific;
  if (path == "torch" && key == "universal") specific = universal_advice(value);
  if (path == "kernel" && key == "language") specific = language_advice(value, table);
  if (specific) return specific;
  return RemovedKeyAdvice{removed_message(key, removed->advice), std::nullopt, ""};
}

bool has_pre_v4_keys(const toml::table& root) {
  auto has_key = [](const toml::node* table, std::string_view key) {
    return table && table->is_table() && table->as_table()->contains(key);
  };
  for (const PreV4Key& removed : BuildTomlSchema::builtin().pre_v4_keys()) {
    if (removed.path != "kernel") {
      if (has_key(toml::at_path(root, removed.path).node(), removed.key)) return true;
      continue;
    }
    if (const toml::table* kernels = root["kernel"].as_table())
      for (auto&& [name, kernel] : *kernels)
        if (has_key(&kernel, removed.key)) return true;
  }
  return false;
}

const EditionKey* find_edition_key(std::string_view path, std::string_view key) {
  return BuildTomlSchema::builtin().find_edition_key(path, key);
}

bool edition_accepts(const EditionKey& key, int format_version) {
  return key.edition == 5 ? format_version >= 5 : format_version < 5;
}

std::string edition_key_message(const EditionKey& key) {
  if (key.edition == 5)
    return "`" + std::string(key.key) +
           "` needs edition 5, but this build.toml has no "
           "`edition` (legacy format v4): " +
           std::string(key.advice);
  return "`" + std::string(key.key) + "` was removed in edition 5: " + std::string(key.advice);
}

}  // namespace kl::analyzers
