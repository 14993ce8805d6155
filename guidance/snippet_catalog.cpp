#include "guidance/snippet_catalog.h"

#include <spdlog/spdlog.h>
#include <toml++/toml.h>

#include <algorithm>

#include "guidance/snippet_syntax.h"
#include "support/fs_paths.h"
#include "support/resources.h"
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

struct ContextName {
  SnippetContext context;
  std::string_view name;
  SnippetLanguage language;
};

constexpr ContextName kContexts[] = {
    {SnippetContext::CudaFileScope, "cuda-file-scope", SnippetLanguage::Cuda},
    {SnippetContext::CudaDeviceCode, "cuda-device-code", SnippetLanguage::Cuda},
    {SnippetContext::CudaHostCode, "cuda-host-code", SnippetLanguage::Cuda},
    {SnippetContext::TorchBinding, "torch-binding", SnippetLanguage::Cpp},
    {SnippetContext::TorchBindingHeader, "torch-binding-header", SnippetLanguage::Cpp},
    {SnippetContext::BuildTomlNew, "build-toml-new", SnippetLanguage::Toml},
    {SnippetContext::BuildToml, "build-toml", SnippetLanguage::Toml},
    {SnippetContext::BuildTomlKernel, "build-toml-kernel", SnippetLanguage::Toml},
    {SnippetContext::PythonPackage, "python-package", SnippetLanguage::Python},
    {SnippetContext::PythonTest, "python-test", SnippetLanguage::Python},
    {SnippetContext::PythonBenchmark, "python-benchmark", SnippetLanguage::Python},
};

const ContextName& context_entry(SnippetContext context) {
  for (const auto& entry : kContexts)
    if (entry.context == context) return entry;
  return kContexts[0];
}

std::string known_context_names() {
  std::string names;
  for (const auto& entry : kContexts) names += (names.empty() ? "" : ", ") + std::string(entry.name);
  return names;
}

// `context` is one name or a list of names; absent: the language's defaults.
Result<std::vector<SnippetContext>> read_contexts(const toml::table& entry, const Snippet& s) {
  const toml::node* node = entry.get("context");
  if (!node) return default_contexts(s.language);
  std::vector<std::string> names;
  if (auto single = node->value<std::string>()) {
    names.push_back(*single);
  } else if (const toml::array* list = node->as_array()) {
    for (const auto& item : *list) {
      auto name = item.value<std::string>();
      if (!name) return make_error("`context` must be a string or a list of strings");
      names.push_back(*name);
    }
  } else {
    return make_error("`context` must be a string or a list of strings");
  }
  if (names.empty()) return make_error("`context` lists no context");
  std::vector<SnippetContext> contexts;
  for (const auto& name : names) {
    auto context = parse_context(name);
    if (!context) return make_error("unknown context `" + name + "` (known: " + known_context_names() + ")");
    if (context_language(*context) != s.language)
      return make_error("context `" + name + "` is not for " + std::string(language_name(s.language)) +
                        " snippets");
    if (std::find(contexts.begin(), contexts.end(), *context) == contexts.end()) contexts.push_back(*context);
  }
  return contexts;
}

// A fragment for a function body is no translation unit: nvcc needs a wrapper around it.
Result<bool> check_compile_wrapper(const Snippet& s) {
  if (s.compile_wrapper.empty()) {
    const bool fragment = !s.offered_in(SnippetContext::CudaFileScope);
    if (s.language == SnippetLanguage::Cuda && s.compile && fragment)
      return make_error("a fragment for a function body needs a `compile_wrapper` (or `compile = false`)");
    return true;
  }
  if (s.language != SnippetLanguage::Cuda) return make_error("`compile_wrapper` is for CUDA snippets only");
  const size_t at = s.compile_wrapper.find(kSnippetMarker);
  if (at == std::string::npos || s.compile_wrapper.find(kSnippetMarker, at + 1) != std::string::npos)
    return make_error("`compile_wrapper` must contain `{{snippet}}` exactly once");
  return true;
}

}  // namespace

std::string_view context_name(SnippetContext context) { return context_entry(context).name; }

std::optional<SnippetContext> parse_context(std::string_view name) {
  for (const auto& entry : kContexts)
    if (entry.name == name) return entry.context;
  return std::nullopt;
}

SnippetLanguage context_language(SnippetContext context) { return context_entry(context).language; }

std::vector<SnippetContext> default_contexts(SnippetLanguage language) {
  switch (language) {
    case SnippetLanguage::Cuda:
      return {SnippetContext::CudaFileScope};
    case SnippetLanguage::Cpp:
      return {SnippetContext::TorchBinding, SnippetContext::TorchBindingHeader};
    case SnippetLanguage::Python:
      return {SnippetContext::PythonPackage};
    case SnippetLanguage::Toml:
      return {SnippetContext::BuildTomlNew};
  }
  return {SnippetContext::CudaFileScope};
}

bool Snippet::offered_in(SnippetContext context) const {
  return std::find(contexts.begin(), contexts.end(), context) != contexts.end();
}

std::string Snippet::compilation_unit() const {
  if (compile_wrapper.empty()) return expanded;
  std::string unit = compile_wrapper;
  unit.replace(unit.find(kSnippetMarker), kSnippetMarker.size(), expanded);
  return unit;
}

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
    s.compile_wrapper = (*entry)["compile_wrapper"].value_or(std::string());
    auto contexts = read_contexts(*entry, s);
    if (!contexts)
      return make_error_at("snippet `" + s.id + "`: " + contexts.error().message, source_name, line, 0);
    s.contexts = std::move(*contexts);
    if (auto wrapper = check_compile_wrapper(s); !wrapper)
      return make_error_at("snippet `" + s.id + "`: " + wrapper.error().message, source_name, line, 0);
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
  auto marker = find_resource(resources::kSnippetConstructs);
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
