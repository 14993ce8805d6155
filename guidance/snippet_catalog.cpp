#include "guidance/snippet_catalog.h"

#include <spdlog/spdlog.h>
#include <toml++/toml.h>

#include <algorithm>

#include "guidance/snippet_syntax.h"
#include "support/fs_paths.h"
#include "support/toml_document.h"

namespace kl::guidance {
namespace {

std::optional<SnippetLanguage> parse_language(const std::string& text) {
  if (text == "cuda") return SnippetLanguage::Cuda;
  if (text == "cpp") return SnippetLanguage::Cpp;
  if (text == "python") return SnippetLanguage::Python;
  if (text == "toml") return SnippetLanguage::Toml;
  return std::nullopt;
}

}  // namespace

std::string_view language_name(SnippetLanguage language) {
  switch (language) {
    case SnippetLanguage::Cuda:
      return "cuda";
    case SnippetLanguage::Cpp:
      return "cpp";
    case SnippetLanguage::Python:
      return "python";
    case SnippetLanguage::Toml:
      return "toml";
  }
  return "cuda";
}

Result<bool> SnippetCatalog::add(std::string_view toml_text, const std::string& source_name) {
  auto document = parse_toml_document(toml_text, source_name);
  if (!document) return document.error();
  const toml::table& root = *document;
  const toml::array* entries = root["snippet"].as_array();
  if (!entries) return true;  // another kind of data file (constructs.toml)
  for (const auto& node : *entries) {
    const toml::table* entry = node.as_table();
    if (!entry) continue;
    const uint32_t line = entry->source().begin.line ? entry->source().begin.line - 1 : 0;
    Snippet s;
    s.id = (*entry)["id"].value_or(std::string());
    s.name = (*entry)["name"].value_or(s.id);
    s.prefix = (*entry)["prefix"].value_or(std::string());
    s.description = (*entry)["description"].value_or(std::string());
    s.guidance = (*entry)["guidance"].value_or(std::string());
    s.body = (*entry)["body"].value_or(std::string());
    s.source = source_name;
    std::string language = (*entry)["language"].value_or(std::string("cuda"));
    auto parsed = parse_language(language);
    if (!parsed)
      return make_error_at("snippet `" + s.id + "`: language must be cuda, cpp, python or toml", source_name,
                           line, 0);
    s.language = *parsed;
    s.compile = (*entry)["compile"].value_or(s.language == SnippetLanguage::Cuda);
    if (s.id.empty() || s.prefix.empty() || s.body.empty())
      return make_error_at("a snippet needs `id`, `prefix` and `body`", source_name, line, 0);
    // TOML drops the newline right after ''' already; a trailing newline before the closing
    // quotes would add an empty line to every insertion.
    while (!s.body.empty() && s.body.back() == '\n') s.body.pop_back();
    auto expanded = expand_snippet_defaults(s.body);
    if (!expanded)
      return make_error_at("snippet `" + s.id + "`: " + expanded.error().message, source_name, line, 0);
    s.expanded = std::move(*expanded);
    for (const auto& other : snippets_) {
      if (other.id == s.id)
        return make_error_at("snippet id `" + s.id + "` is used twice", source_name, line, 0);
      if (other.prefix == s.prefix)
        return make_error_at("snippet prefix `" + s.prefix + "` is used twice", source_name, line, 0);
    }
    snippets_.push_back(std::move(s));
  }
  return true;
}

Result<SnippetCatalog> SnippetCatalog::parse(std::string_view toml_text, const std::string& source_name) {
  SnippetCatalog catalog;
  auto added = catalog.add(toml_text, source_name);
  if (!added) return added.error();
  return catalog;
}

Result<SnippetCatalog> SnippetCatalog::load(const std::filesystem::path& folder) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) return make_error(folder.string() + " is not a folder");
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::directory_iterator(folder, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".toml") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  SnippetCatalog catalog;
  for (const auto& file : files) {
    auto text = read_file_text(file);
    if (!text) return make_error("cannot read " + file.string());
    auto added = catalog.add(*text, file.string());
    if (!added) return added.error();
  }
  return catalog;
}

Result<SnippetCatalog> SnippetCatalog::load_bundled() {
  // constructs.toml is the marker: a resource root with an unrelated snippets/ folder is passed over.
  auto marker = find_resource("snippets/constructs.toml");
  if (!marker) return make_error("the snippets folder was not found (set KERNEL_LSP_RESOURCE_DIR)");
  return load(marker->parent_path());
}

const SnippetCatalog& SnippetCatalog::bundled() {
  static const SnippetCatalog catalog = [] {
    auto loaded = load_bundled();
    if (!loaded) {
      spdlog::warn("snippets: {}", loaded.error().describe());
      return SnippetCatalog{};
    }
    return std::move(*loaded);
  }();
  return catalog;
}

const Snippet* SnippetCatalog::find(std::string_view id) const {
  for (const auto& s : snippets_)
    if (s.id == id) return &s;
  return nullptr;
}

}  // namespace kl::guidance
