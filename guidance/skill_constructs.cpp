#include "guidance/skill_constructs.h"

#include <spdlog/spdlog.h>
#include <toml++/toml.h>

#include <algorithm>

#include "support/fs_paths.h"
#include "support/resources.h"
#include "support/toml_document.h"

namespace kl::guidance {
namespace {

std::vector<std::string> strings_of(const toml::table& table, std::string_view key) {
  std::vector<std::string> out;
  const toml::node* node = table.get(key);
  if (!node) return out;
  if (auto s = node->value<std::string>()) out.push_back(*s);
  if (const toml::array* array = node->as_array())
    for (const auto& item : *array)
      if (auto s = item.value<std::string>()) out.push_back(*s);
  return out;
}

bool word_char(char c, ConstructScope scope) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         (scope == ConstructScope::Toml && c == '-');
}

}  // namespace

Result<ConstructTable> ConstructTable::parse(std::string_view toml_text, const std::string& source_name) {
  auto document = parse_toml_document(toml_text, source_name);
  if (!document) return document.error();
  const toml::table& root = *document;
  const toml::array* entries = root["construct"].as_array();
  if (!entries) return make_error(source_name + ": no [[construct]] entries");
  ConstructTable table;
  for (const auto& node : *entries) {
    const toml::table* entry = node.as_table();
    if (!entry) continue;
    uint32_t line = entry->source().begin.line ? entry->source().begin.line - 1 : 0;
    Construct c;
    c.id = (*entry)["id"].value_or(std::string());
    c.heading = (*entry)["heading"].value_or(std::string());
    c.file = (*entry)["file"].value_or(std::string());
    c.names = strings_of(*entry, "names");
    c.keys = strings_of(*entry, "keys");
    c.pattern_texts = strings_of(*entry, "patterns");
    std::string scope = (*entry)["scope"].value_or(std::string("cuda"));
    if (scope == "cuda")
      c.scope = ConstructScope::Cuda;
    else if (scope == "toml")
      c.scope = ConstructScope::Toml;
    else
      return make_error_at("construct `" + c.id + "`: scope must be \"cuda\" or \"toml\"", source_name, line,
                           0);
    if (c.id.empty() || c.heading.empty())
      return make_error_at("a construct needs `id` and `heading`", source_name, line, 0);
    for (const auto& text : c.pattern_texts) {
      try {
        c.patterns.emplace_back(text, std::regex::ECMAScript | std::regex::optimize);
      } catch (const std::regex_error& e) {
        return make_error_at("construct `" + c.id + "`: bad pattern `" + text + "`: " + e.what(), source_name,
                             line, 0);
      }
    }
    table.constructs_.push_back(std::move(c));
  }
  return table;
}

Result<ConstructTable> ConstructTable::load_bundled() {
  auto path = find_resource(resources::kSnippetConstructs);
  if (!path) return make_error("snippets/constructs.toml not found (set KERNEL_LSP_RESOURCE_DIR)");
  auto text = read_file_text(*path);
  if (!text) return make_error("cannot read " + path->string());
  return parse(*text, path->string());
}

const ConstructTable& ConstructTable::bundled() {
  static const ConstructTable table = [] {
    auto loaded = load_bundled();
    if (!loaded) {
      spdlog::warn("construct table: {}", loaded.error().describe());
      return ConstructTable{};
    }
    return std::move(*loaded);
  }();
  return table;
}

std::optional<ConstructHit> ConstructTable::match_at(std::string_view line, size_t column,
                                                     ConstructScope scope) const {
  // Spellings that need the line (cp.async, reinterpret_cast<float4*>, build.toml keys) first:
  // they are more specific than the word alone.
  for (const auto& c : constructs_) {
    if (c.scope != scope) continue;
    for (const auto& pattern : c.patterns) {
      for (auto it = std::cregex_iterator(line.data(), line.data() + line.size(), pattern);
           it != std::cregex_iterator(); ++it) {
        size_t begin = static_cast<size_t>(it->position(0));
        size_t end = begin + static_cast<size_t>(it->length(0));
        if (column >= begin && column <= end) return ConstructHit{&c, begin, end};
      }
    }
  }
  size_t begin = std::min(column, line.size());
  while (begin > 0 && word_char(line[begin - 1], scope)) --begin;
  size_t end = std::min(column, line.size());
  while (end < line.size() && word_char(line[end], scope)) ++end;
  if (begin == end) return std::nullopt;
  std::string_view word = line.substr(begin, end - begin);
  for (const auto& c : constructs_) {
    if (c.scope != scope) continue;
    if (std::find(c.names.begin(), c.names.end(), word) != c.names.end()) return ConstructHit{&c, begin, end};
  }
  return std::nullopt;
}

const Construct* ConstructTable::find(std::string_view spelling) const {
  auto has = [&](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), spelling) != list.end();
  };
  for (const auto& c : constructs_)
    if (c.id == spelling || has(c.names) || has(c.keys)) return &c;
  for (const auto& c : constructs_)
    for (const auto& pattern : c.patterns)
      if (std::regex_search(spelling.begin(), spelling.end(), pattern)) return &c;
  return nullptr;
}

}  // namespace kl::guidance
