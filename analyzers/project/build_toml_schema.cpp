#include "analyzers/project/build_toml_schema.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "analyzers/project/build_toml_editions.h"
#include "support/toml_document.h"

namespace kl::data {
std::string_view embedded_build_toml_schema_toml();
}

namespace kl::analyzers {
namespace {

// The key sets the section readers ask for; the data must have exactly these.
constexpr std::array<std::string_view, 12> kKeySets = {
    "top-level",   "general",        "general.cuda", "general.hub",  "general.xpu", "general.neuron",
    "general.tpu", "kernel-depends", "torch",        "torch-noarch", "tvm-ffi",     "kernel"};

constexpr std::array<std::string_view, 12> kTopLevel = {"edition",
                                                        "backends",
                                                        "git-url-schemes",
                                                        "keys",
                                                        "kernel-backend",
                                                        "python-depends",
                                                        "depends",
                                                        "added-in-edition-5",
                                                        "removed-in-edition-5",
                                                        "removed-before-v4",
                                                        "removed-languages",
                                                        "spelling"};

using Problem = std::optional<Error>;  // nothing: fine

}  // namespace

// Fills a BuildTomlSchema from the parsed data file, one part of the file per function.
class BuildTomlSchemaReader {
 public:
  BuildTomlSchemaReader(const toml::table& root, const std::string& source, BuildTomlSchema& schema)
      : root_(root), source_(source), schema_(schema) {}

  Problem read() {
    for (auto&& [key, value] : root_)
      if (std::find(kTopLevel.begin(), kTopLevel.end(), key.str()) == kTopLevel.end())
        return at(value, "unknown entry `" + std::string(key.str()) + "`");
    if (root_["edition"].value<int64_t>() != kCurrentEdition)
      return missing("`edition = " + std::to_string(kCurrentEdition) +
                     "`: the section readers are written for that edition");
    if (Problem problem = read_backends()) return problem;
    if (Problem problem = assign(strings(root_.get("git-url-schemes"), "git-url-schemes"), schema_.git_url_schemes_))
      return problem;
    if (Problem problem = read_keys()) return problem;
    if (Problem problem = read_kernel_backends()) return problem;
    if (Problem problem = read_python_depends()) return problem;
    if (Problem problem = read_depends()) return problem;
    if (Problem problem = read_edition_keys()) return problem;
    if (Problem problem = read_pre_v4_keys()) return problem;
    return read_spelling();
  }

 private:
  const toml::table& root_;
  const std::string& source_;
  BuildTomlSchema& schema_;

  Error at(const toml::node& node, std::string message) const {
    const uint32_t line = node.source().begin.line;
    return make_error_at(std::move(message), source_, line ? line - 1 : 0, 0);
  }
  Error missing(const std::string& what) const { return make_error(source_ + ": needs " + what); }

  std::string_view intern(std::string_view text) { return schema_.words_->emplace_back(text); }

  std::string_view string_of(const toml::node& node) {
    return intern(node.as_string() ? std::string_view(node.as_string()->get()) : std::string_view());
  }

  // What `read` read, into `into`; or why it could not.
  template <typename T>
  static Problem assign(Result<T> read, T& into) {
    if (!read) return read.error();
    into = std::move(*read);
    return std::nullopt;
  }

  // An array of non-empty strings.
  Result<std::vector<std::string_view>> strings(const toml::node* node, std::string_view what) {
    if (!node) return missing("`" + std::string(what) + "`");
    const toml::array* array = node->as_array();
    if (!array) return at(*node, "`" + std::string(what) + "` must be an array of strings");
    std::vector<std::string_view> out;
    for (const toml::node& item : *array) {
      if (!item.is_string() || item.as_string()->get().empty())
        return at(item, "`" + std::string(what) + "` must hold non-empty strings");
      out.push_back(string_of(item));
    }
    return out;
  }

  const toml::table* table(std::string_view name) const { return root_[name].as_table(); }

  Problem read_backends() {
    return assign(strings(root_.get("backends"), "backends"), schema_.general_backends_);
  }

  Problem read_keys() {
    const toml::table* keys = table("keys");
    if (!keys) return missing("a [keys] table");
    for (std::string_view name : kKeySets)
      if (!keys->contains(name)) return missing("`" + std::string(name) + "` in [keys]");
    for (auto&& [name, value] : *keys) {
      if (std::find(kKeySets.begin(), kKeySets.end(), name.str()) == kKeySets.end())
        return at(value, "[keys] has `" + std::string(name.str()) + "`, which no reader asks for");
      auto list = strings(&value, name.str());
      if (!list) return list.error();
      schema_.key_sets_.push_back({intern(name.str()), std::move(*list)});
    }
    return std::nullopt;
  }

  Problem read_kernel_backends() {
    const toml::array* backends = root_["kernel-backend"].as_array();
    if (!backends || backends->empty()) return missing("[[kernel-backend]] entries");
    for (const toml::node& node : *backends) {
      const toml::table* entry = node.as_table();
      if (!entry || !entry->get_as<std::string>("name")) return at(node, "a [[kernel-backend]] needs `name`");
      std::string_view name = string_of(*entry->get("name"));
      schema_.kernel_backends_.push_back(name);
      if (!entry->contains("keys")) continue;
      if (!entry->get_as<std::string>("title")) return at(node, "a backend with `keys` needs `title`");
      std::string_view title = string_of(*entry->get("title"));
      auto keys = strings(entry->get("keys"), "keys");
      if (!keys) return keys.error();
      for (std::string_view key : *keys) schema_.kernel_backend_keys_.push_back({key, name, title});
    }
    return std::nullopt;
  }

  Problem read_python_depends() {
    const toml::table* depends = table("python-depends");
    if (!depends) return missing("a [python-depends] table");
    if (Problem problem = assign(strings(depends->get("general"), "python-depends.general"),
                                 schema_.general_python_depends_))
      return problem;
    const toml::table* backends = depends->get_as<toml::table>("backends");
    if (!backends) return missing("a [python-depends.backends] table");
    for (auto&& [backend, value] : *backends) {
      auto packages = strings(&value, backend.str());
      if (!packages) return packages.error();
      for (std::string_view package : *packages) {
        for (const BackendPythonDependency& known : schema_.backend_python_depends_)
          if (known.package == package)
            return at(value, "`" + std::string(package) + "` belongs to two backends");
        schema_.backend_python_depends_.push_back({intern(backend.str()), package});
      }
    }
    return std::nullopt;
  }

  Problem read_depends() {
    const toml::table* depends = table("depends");
    if (!depends) return missing("a [depends] table");
    for (auto&& [key, value] : *depends)
      if (key.str() != "values")
        return at(value, "[depends] has only `values`, not `" + std::string(key.str()) + "`");
    return assign(strings(depends->get("values"), "depends.values"), schema_.dependencies_);
  }

  Problem add_edition_key(const toml::node& where, EditionKey key) {
    if (schema_.find_edition_key(key.path, key.key))
      return at(where, "`" + std::string(key.key) + "` of " + std::string(key.path) + " is listed twice");
    schema_.edition_keys_.push_back(key);
    return std::nullopt;
  }

  // [added-in-edition-5] (with its table-values) and [[removed-in-edition-5]].
  Problem read_edition_keys() {
    const toml::table* added = table("added-in-edition-5");
    if (!added || !added->get_as<std::string>("advice") || !added->get_as<toml::table>("keys"))
      return missing("[added-in-edition-5] with `advice` and [added-in-edition-5.keys]");
    std::string_view advice = string_of(*added->get("advice"));
    for (auto&& [path, value] : *added->get_as<toml::table>("keys")) {
      auto keys = strings(&value, path.str());
      if (!keys) return keys.error();
      for (std::string_view key : *keys)
        if (Problem problem = add_edition_key(value, {intern(path.str()), key, 5, advice})) return problem;
    }
    if (Problem problem = read_table_values(*added)) return problem;
    return read_removed_keys();
  }

  // [[removed-in-edition-5]]: optional, since edition 5 removed no key of v4 (a TOML array of
  // tables cannot be written empty).
  Problem read_removed_keys() {
    const toml::node* node = root_.get("removed-in-edition-5");
    if (!node) return std::nullopt;
    const toml::array* removed = node->as_array();
    if (!removed) return at(*node, "`removed-in-edition-5` must be [[removed-in-edition-5]] entries");
    for (const toml::node& item : *removed) {
      auto entry = described_key(item, "[[removed-in-edition-5]]");
      if (!entry) return entry.error();
      if (Problem problem = add_edition_key(item, {entry->path, entry->key, 4, entry->advice})) return problem;
    }
    return std::nullopt;
  }

  // [[added-in-edition-5.table-values]]: keys whose value may be a table only in edition 5.
  Problem read_table_values(const toml::table& added) {
    const toml::array* values = added["table-values"].as_array();
    if (!values) return missing("[[added-in-edition-5.table-values]] entries");
    for (const toml::node& node : *values) {
      auto entry = described_key(node, "[[added-in-edition-5.table-values]]");
      if (!entry) return entry.error();
      schema_.edition_5_table_values_.push_back({entry->path, entry->key, 5, entry->advice});
    }
    return std::nullopt;
  }

  // { table = "...", key = "...", advice = "..." }
  Result<PreV4Key> described_key(const toml::node& node, std::string_view what) {
    const toml::table* entry = node.as_table();
    if (!entry || !entry->get_as<std::string>("table") || !entry->get_as<std::string>("key") ||
        !entry->get_as<std::string>("advice"))
      return at(node, std::string(what) + " needs `table`, `key` and `advice`");
    return PreV4Key{string_of(*entry->get("table")), string_of(*entry->get("key")),
                    string_of(*entry->get("advice"))};
  }

  // [[removed-before-v4]] and [removed-languages].
  Problem read_pre_v4_keys() {
    const toml::array* removed = root_["removed-before-v4"].as_array();
    if (!removed) return missing("[[removed-before-v4]] entries");
    for (const toml::node& node : *removed) {
      auto entry = described_key(node, "[[removed-before-v4]]");
      if (!entry) return entry.error();
      schema_.pre_v4_keys_.push_back(*entry);
    }
    const toml::table* languages = table("removed-languages");
    if (!languages) return missing("a [removed-languages] table");
    for (auto&& [language, backend] : *languages) {
      if (!backend.is_string()) return at(backend, "[removed-languages] maps a language to a backend");
      schema_.language_backends_.emplace_back(intern(language.str()), string_of(backend));
    }
    return std::nullopt;
  }

  // [spelling] synonyms: [word, what it means] pairs for "did you mean".
  Problem read_spelling() {
    const toml::table* spelling = table("spelling");
    if (!spelling) return missing("a [spelling] table");
    const toml::array* synonyms = spelling->get_as<toml::array>("synonyms");
    if (!synonyms) return missing("[spelling] synonyms");
    for (const toml::node& node : *synonyms) {
      const toml::array* pair = node.as_array();
      if (!pair || pair->size() != 2 || !pair->get(0)->is_string() || !pair->get(1)->is_string())
        return at(node, "[spelling] synonyms are [\"word\", \"what it means\"] pairs");
      schema_.synonyms_.emplace_back(string_of(*pair->get(0)), string_of(*pair->get(1)));
    }
    return std::nullopt;
  }
};

Result<BuildTomlSchema> BuildTomlSchema::parse(std::string_view toml_text, const std::string& source_name) {
  auto document = parse_toml_document(toml_text, source_name);
  if (!document) return document.error();
  BuildTomlSchema schema;
  if (Problem problem = BuildTomlSchemaReader(*document, source_name, schema).read()) return *problem;
  return schema;
}

const BuildTomlSchema& BuildTomlSchema::builtin() {
  static const BuildTomlSchema schema = load_builtin_table<BuildTomlSchema>(
      {kl::data::embedded_build_toml_schema_toml(), "build_toml_schema.toml",
       "KERNEL_LSP_BUILD_TOML_SCHEMA_TOML", "build.toml schema"},
      &BuildTomlSchema::parse);
  return schema;
}

std::span<const std::string_view> BuildTomlSchema::keys(std::string_view table) const {
  for (const KeySet& set : key_sets_)
    if (set.table == table) return set.keys;
  return {};
}

std::vector<std::string_view> BuildTomlSchema::python_depends_of(std::string_view backend) const {
  std::vector<std::string_view> out;
  for (const BackendPythonDependency& entry : backend_python_depends_)
    if (entry.backend == backend) out.push_back(entry.package);
  return out;
}

bool BuildTomlSchema::is_dependency(std::string_view text) const {
  return std::find(dependencies_.begin(), dependencies_.end(), text) != dependencies_.end();
}

const EditionKey* BuildTomlSchema::find_edition_key(std::string_view path, std::string_view key) const {
  for (const EditionKey& entry : edition_keys_)
    if (entry.path == path && entry.key == key) return &entry;
  return nullptr;
}

const EditionKey* BuildTomlSchema::find_edition_5_table_value(std::string_view path, std::string_view key) const {
  for (const EditionKey& entry : edition_5_table_values_)
    if (entry.path == path && entry.key == key) return &entry;
  return nullptr;
}

const PreV4Key* BuildTomlSchema::find_pre_v4_key(std::string_view path, std::string_view key) const {
  for (const PreV4Key& entry : pre_v4_keys_)
    if (entry.path == path && entry.key == key) return &entry;
  return nullptr;
}

std::optional<std::string_view> BuildTomlSchema::backend_of_language(std::string_view language) const {
  for (const auto& [name, backend] : language_backends_)
    if (name == language) return backend;
  return std::nullopt;
}

}  // namespace kl::analyzers
