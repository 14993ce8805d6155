#include "analyzers/project/build_toml_section.h"

#include <algorithm>
#include <cctype>

#include "analyzers/project/build_toml_editions.h"
#include "analyzers/project/build_toml_spelling.h"

namespace kl::analyzers {
namespace {

// As upstream's Version reads it (kernels-data/src/version.rs): surrounding blanks trimmed, then
// one or more numbers separated by dots ("12", "12.8", "2.10.1").
bool is_version_text(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  size_t i = 0;
  while (true) {
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start) return false;
    if (i == text.size()) return true;
    if (text[i] != '.') return false;
    ++i;
  }
}

}  // namespace

std::string joined_list(std::span<const std::string_view> words) {
  std::string out;
  for (std::string_view word : words) {
    if (!out.empty()) out += ", ";
    out += word;
  }
  return out;
}

std::string_view toml_type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number with a fraction";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time: return "a date/time";
    default: return "nothing";
  }
}

Range table_header_range(const toml::table& table, const toml::key& key,
                         const TomlRangeMapper& ranges) {
  if (table.is_inline() || table.source().begin.line == 0) return ranges.range(key.source());
  return ranges.range(table.source());
}

TomlSection::TomlSection(const toml::table& table, std::string path, std::string title,
                         Range header, BuildTomlContext& context)
    : table_(&table),
      path_(std::move(path)),
      title_(std::move(title)),
      header_(header),
      context_(&context) {}

void TomlSection::check_keys(std::span<const std::string_view> known,
                             const KeyExplainer& explain) const {
  for (auto&& [key, value] : *table_) {
    const std::string_view name = key.str();
    const Range where = context_->ranges.range(key.source());
    if (auto advice = removed_key_advice(path_, name, value, *table_)) {
      std::vector<Fix> fixes;
      if (advice->replacement) {
        Range whole = context_->ranges.span(key.source(), value.source());
        if (advice->replacement->empty())  // delete the whole line
          whole = Range{{whole.start.line, 0}, {whole.start.line + 1, 0}};
        fixes.push_back(problems().replacement(advice->fix_title, whole, *advice->replacement));
      }
      problems().error(where, advice->message, std::move(fixes));
      continue;
    }
    if (const EditionKey* edition = find_edition_key(path_, name)) {
      if (edition_accepts(*edition, context_->format_version)) continue;
      problems().error(where, edition_key_message(*edition));
      continue;
    }
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    if (explain && explain(name, where, value)) continue;

    std::string message = "unknown key `" + std::string(name) + "` in " + title_;
    if (auto suggestion = closest_match(name, known)) {
      message += "; did you mean `" + std::string(*suggestion) + "`?";
      misspellings_.emplace_back(std::string(*suggestion), std::string(name));
      problems().error(where, std::move(message),
                       {problems().replacement("Replace `" + std::string(name) + "` with `" +
                                                   std::string(*suggestion) + "`",
                                               where, std::string(*suggestion))});
    } else {
      message += " (known keys: " + joined_list(known) + ")";
      problems().error(where, std::move(message));
    }
  }
}

toml::table::const_iterator TomlSection::find_entry(std::string_view key) const {
  auto it = table_->find(key);
  if (it != table_->end()) return it;
  for (const auto& [known, misspelt] : misspellings_)
    if (known == key) return table_->find(misspelt);
  return table_->end();
}

const toml::node* TomlSection::find(std::string_view key) const {
  auto it = find_entry(key);
  return it == table_->end() ? nullptr : &it->second;
}

Range TomlSection::key_range(std::string_view key) const {
  auto it = find_entry(key);
  if (it == table_->end()) return header_;
  return context_->ranges.range(it->first.source());
}

Range TomlSection::key_value_range(std::string_view key) const {
  auto it = find_entry(key);
  if (it == table_->end()) return header_;
  return context_->ranges.span(it->first.source(), it->second.source());
}

Range TomlSection::range_of(const toml::node& node) const {
  return context_->ranges.range(node.source());
}

bool TomlSection::require(std::string_view key, std::string_view example) const {
  if (find(key)) return true;
  problems().error(header_, title_ + " is missing the required key `" + std::string(key) +
                                "`, e.g. `" + std::string(example) + "`");
  return false;
}

void TomlSection::wrong_type(const toml::node& node, std::string_view what,
                             std::string_view expected) const {
  problems().error(range_of(node), std::string(what) + " in " + title_ + " must be " +
                                       std::string(expected) + ", not " +
                                       std::string(toml_type_name(node)));
}

template <typename T>
std::optional<T> TomlSection::value_of(std::string_view key, std::string_view expected) const {
  const toml::node* node = find(key);
  if (!node) return std::nullopt;
  if (const auto* value = node->as<T>()) return value->get();
  wrong_type(*node, "`" + std::string(key) + "`", expected);
  return std::nullopt;
}

std::optional<std::string> TomlSection::string(std::string_view key) const {
  return value_of<std::string>(key, "a string");
}

std::optional<int64_t> TomlSection::integer(std::string_view key) const {
  return value_of<int64_t>(key, "an integer");
}

std::optional<bool> TomlSection::boolean(std::string_view key) const {
  return value_of<bool>(key, "true or false");
}

std::optional<std::vector<StringItem>> TomlSection::string_items(std::string_view key) const {
  const toml::node* node = find(key);
  if (!node) return std::nullopt;
  const toml::array* array = node->as_array();
  if (!array) {
    wrong_type(*node, "`" + std::string(key) + "`", "an array of strings");
    return std::nullopt;
  }
  std::vector<StringItem> items;
  for (const toml::node& entry : *array) {
    if (const auto* text = entry.as_string())
      items.push_back({text->get(), range_of(entry)});
    else
      wrong_type(entry, "entries of `" + std::string(key) + "`", "strings");
  }
  return items;
}

std::optional<std::vector<std::string>> TomlSection::strings(std::string_view key) const {
  auto items = string_items(key);
  if (!items) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(items->size());
  for (auto& item : *items) out.push_back(std::move(item.text));
  return out;
}

std::optional<std::string> TomlSection::version(std::string_view key) const {
  auto text = string(key);
  if (!text) {
    return std::nullopt;
  }
  if (!is_version_text(*text)) {
    problems().error(range_of(*find(key)), "`" + std::string(key) + "` in " + title_ +
                                               " must be a version such as \"12.8\", not \"" +
                                               *text + "\"");
    return std::nullopt;
  }
  return text;
}

std::optional<TomlSection> TomlSection::subsection(std::string_view key, std::string path) const {
  auto it = find_entry(key);
  if (it == table_->end()) return std::nullopt;
  const toml::table* child = it->second.as_table();
  if (!child) {
    wrong_type(it->second, "`" + std::string(key) + "`", "a table");
    return std::nullopt;
  }
  // "[general]" + "cuda" -> "[general.cuda]"
  std::string title = title_.size() >= 2 && title_.front() == '[' && title_.back() == ']'
                          ? title_.substr(0, title_.size() - 1) + "." + std::string(key) + "]"
                          : "`" + std::string(key) + "`";
  return TomlSection(*child, std::move(path), std::move(title),
                     table_header_range(*child, it->first, context_->ranges), *context_);
}

}  // namespace kl::analyzers
