#include "analyzers/data/feature_table.h"

#include <toml++/toml.h>

#include "support/toml_document.h"

namespace kl::data {
std::string_view embedded_features_toml();
}

namespace kl::analyzers {

bool Feature::available_on(const Capability& capability) const {
  if (!only.empty()) {
    for (const auto& allowed : only) {
      if (allowed.number() != capability.number()) continue;
      if (allowed.variant == capability.variant) return true;
      // An arch-specific target ('a') has every feature of its family ('f').
      if (allowed.variant == ArchVariant::Family && capability.variant == ArchVariant::Specific) return true;
    }
    return false;
  }
  return capability.number() >= min.number();
}

std::string Feature::requirement() const {
  if (only.empty()) return "compute capability " + min.text() + " or newer";
  std::string list;
  for (size_t i = 0; i < only.size(); ++i) {
    if (i) list += i + 1 == only.size() ? " or " : ", ";
    list += only[i].text();
  }
  return "an arch-specific target (" + list + ")";
}

namespace {

std::vector<std::string> strings_of(const toml::node_view<const toml::node>& node) {
  std::vector<std::string> out;
  if (auto s = node.value<std::string>()) out.push_back(*s);
  if (const toml::array* a = node.as_array())
    for (const auto& item : *a)
      if (auto s = item.value<std::string>()) out.push_back(*s);
  return out;
}

}  // namespace

Result<FeatureTable> FeatureTable::parse(std::string_view toml_text, const std::string& source_name) {
  auto document = parse_toml_document(toml_text, source_name);
  if (!document) return document.error();
  const toml::table& root = *document;
  FeatureTable table;
  const toml::array* entries = root["feature"].as_array();
  if (!entries) return make_error(source_name + ": no [[feature]] entries");
  for (const auto& node : *entries) {
    const toml::table* t = node.as_table();
    if (!t) continue;
    uint32_t line = t->source().begin.line ? t->source().begin.line - 1 : 0;
    const toml::table& entry = *t;
    Feature f;
    f.id = entry["id"].value_or(std::string());
    std::string kind = entry["kind"].value_or(std::string());
    if (kind == "function") f.kind = FeatureKind::Function;
    else if (kind == "ptx") f.kind = FeatureKind::Ptx;
    else if (kind == "macro") f.kind = FeatureKind::Macro;
    else if (kind == "type") f.kind = FeatureKind::Type;
    else return make_error_at("feature `" + f.id + "`: unknown kind `" + kind + "`", source_name, line, 0);
    auto match = strings_of(toml::node_view<const toml::node>(entry.get("match")));
    if (f.id.empty() || match.empty())
      return make_error_at("feature needs `id` and `match`", source_name, line, 0);
    if (f.kind == FeatureKind::Function || f.kind == FeatureKind::Macro) {
      f.names = match;
    } else {
      f.pattern_texts = match;
      try {
        for (const auto& p : match) f.patterns.emplace_back(p, std::regex::ECMAScript | std::regex::optimize);
      } catch (const std::regex_error& e) {
        return make_error_at("feature `" + f.id + "`: bad regex: " + e.what(), source_name, line, 0);
      }
    }
    if (auto arg = entry["argument_type"].value<std::string>()) {
      f.argument_type_text = *arg;
      try {
        f.argument_type.emplace(*arg, std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        return make_error_at("feature `" + f.id + "`: bad argument_type regex", source_name, line, 0);
      }
    }
    auto min_text = entry["min"].value<std::string>();
    for (const auto& o : strings_of(toml::node_view<const toml::node>(entry.get("only")))) {
      auto cap = parse_capability(o);
      if (!cap) return make_error_at("feature `" + f.id + "`: bad capability in `only`", source_name, line, 0);
      f.only.push_back(*cap);
    }
    if (min_text) {
      auto cap = parse_capability(*min_text);
      if (!cap) return make_error_at("feature `" + f.id + "`: bad `min`", source_name, line, 0);
      f.min = *cap;
    } else if (!f.only.empty()) {
      f.min = f.only.front();
    } else {
      return make_error_at("feature `" + f.id + "` needs `min` or `only`", source_name, line, 0);
    }
    f.summary = entry["summary"].value_or(std::string());
    f.guard = entry["guard"].value_or("__CUDA_ARCH__ >= " + std::to_string(f.min.cuda_arch_macro()));
    table.features_.push_back(std::move(f));
  }
  for (size_t i = 0; i < table.features_.size(); ++i)
    for (const auto& name : table.features_[i].names) table.by_name_[name].push_back(i);
  return table;
}

const FeatureTable& FeatureTable::builtin() {
  static const FeatureTable table = load_builtin_table<FeatureTable>(
      {kl::data::embedded_features_toml(), "features.toml", "KERNEL_LSP_FEATURES_TOML", "feature table"},
      &FeatureTable::parse);
  return table;
}

std::vector<const Feature*> FeatureTable::match_function(const std::string& qualified_name,
                                                         const std::string& first_argument_type) const {
  std::vector<const Feature*> out;
  auto it = by_name_.find(qualified_name);
  if (it == by_name_.end()) return out;
  for (size_t index : it->second) {
    const Feature& f = features_[index];
    if (f.kind != FeatureKind::Function) continue;
    if (f.argument_type && !std::regex_search(first_argument_type, *f.argument_type)) continue;
    out.push_back(&f);
  }
  return out;
}

std::vector<const Feature*> FeatureTable::match_macro(const std::string& name) const {
  std::vector<const Feature*> out;
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return out;
  for (size_t index : it->second)
    if (features_[index].kind == FeatureKind::Macro) out.push_back(&features_[index]);
  return out;
}

namespace {
std::vector<const Feature*> match_patterns(const std::vector<Feature>& features, FeatureKind kind,
                                           const std::string& text) {
  std::vector<const Feature*> out;
  for (const auto& f : features) {
    if (f.kind != kind) continue;
    for (const auto& pattern : f.patterns) {
      if (std::regex_search(text, pattern)) {
        out.push_back(&f);
        break;
      }
    }
  }
  return out;
}
}  // namespace

std::vector<const Feature*> FeatureTable::match_ptx(const std::string& instruction) const {
  return match_patterns(features_, FeatureKind::Ptx, instruction);
}

std::vector<const Feature*> FeatureTable::match_type(const std::string& type_name) const {
  return match_patterns(features_, FeatureKind::Type, type_name);
}

const Feature* FeatureTable::find(const std::string& id) const {
  for (const auto& f : features_)
    if (f.id == id) return &f;
  return nullptr;
}

}  // namespace kl::analyzers
