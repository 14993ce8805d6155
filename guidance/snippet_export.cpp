#include "guidance/snippet_export.h"

#include <algorithm>

namespace kl::guidance {
namespace {

using ordered_json = nlohmann::ordered_json;

// The languages of a snippet's contexts, in first-seen order: a torch-ext binding is C++, a
// kernel body CUDA. Editors cannot tell a kernel body from file scope, so this is as close as a
// static snippet file gets to the server's contexts.
std::vector<SnippetLanguage> context_languages(const Snippet& s) {
  std::vector<SnippetLanguage> languages;
  for (SnippetContext context : s.contexts) {
    SnippetLanguage language = context_language(context);
    if (std::find(languages.begin(), languages.end(), language) == languages.end())
      languages.push_back(language);
  }
  if (languages.empty()) languages.push_back(s.language);
  return languages;
}

// VS Code's language ids (CUDA is "cuda-cpp" there), comma-separated.
std::string vscode_scope(const Snippet& s) {
  std::string scope;
  for (SnippetLanguage language : context_languages(s)) {
    std::string_view id = language == SnippetLanguage::Cuda ? "cuda-cpp" : language_name(language);
    scope += (scope.empty() ? "" : ",") + std::string(id);
  }
  return scope;
}

// Neovim's filetypes are the languages' names ("cuda", "cpp", "python", "toml").
std::vector<std::string> neovim_filetypes(const Snippet& s) {
  std::vector<std::string> filetypes;
  for (SnippetLanguage language : context_languages(s)) filetypes.emplace_back(language_name(language));
  return filetypes;
}

ordered_json vscode_entry(const Snippet& s, bool with_scope) {
  ordered_json entry;
  entry["prefix"] = s.prefix;
  entry["body"] = body_lines(s.body);
  entry["description"] = s.description;
  if (with_scope) entry["scope"] = vscode_scope(s);
  return entry;
}

}  // namespace

ordered_json body_lines(const std::string& body) {
  ordered_json lines = ordered_json::array();
  size_t start = 0;
  while (true) {
    size_t end = body.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(body.substr(start));
      break;
    }
    lines.push_back(body.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

ordered_json export_vscode_snippets(const SnippetCatalog& catalog) {
  ordered_json out = ordered_json::object();
  for (const auto& s : catalog.all()) out[s.name] = vscode_entry(s, true);
  return out;
}

std::map<std::string, ordered_json> export_neovim_snippets(const SnippetCatalog& catalog) {
  std::map<std::string, ordered_json> files;
  std::vector<std::string> order;  // filetypes in first-seen order, for a stable package.json
  for (const auto& s : catalog.all()) {
    for (const auto& filetype : neovim_filetypes(s)) {
      const std::string file = filetype + ".json";
      if (!files.count(file)) {
        files[file] = ordered_json::object();
        order.push_back(filetype);
      }
      files[file][s.name] = vscode_entry(s, false);
    }
  }
  ordered_json contributes = ordered_json::array();
  for (const auto& filetype : order)
    contributes.push_back({{"language", filetype}, {"path", "./" + filetype + ".json"}});
  ordered_json package;
  package["name"] = "kernel-lsp-snippets";
  package["displayName"] = "kernel-lsp snippets";
  package["description"] = "CUDA kernel and kernel-builder binding snippets from kernel-lsp";
  package["version"] = "0.1.0";
  package["engines"] = {{"vscode", "^1.11.0"}};
  package["contributes"] = {{"snippets", contributes}};
  files["package.json"] = package;
  return files;
}

ordered_json export_snippets_json(const SnippetCatalog& catalog) {
  ordered_json list = ordered_json::array();
  for (const auto& s : catalog.all()) {
    ordered_json entry;
    entry["id"] = s.id;
    entry["name"] = s.name;
    entry["prefix"] = s.prefix;
    entry["description"] = s.description;
    entry["language"] = std::string(language_name(s.language));
    entry["guidance"] = s.guidance;
    ordered_json contexts = ordered_json::array();
    for (SnippetContext context : s.contexts) contexts.push_back(std::string(context_name(context)));
    entry["context"] = std::move(contexts);
    entry["body"] = s.body;
    entry["expanded"] = s.expanded;
    list.push_back(std::move(entry));
  }
  return {{"snippets", list}};
}

}  // namespace kl::guidance
