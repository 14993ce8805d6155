#include "guidance/snippet_export.h"

namespace kl::guidance {
namespace {

using ordered_json = nlohmann::ordered_json;

// VS Code's language ids (CUDA is "cuda-cpp" there).
const char* vscode_scope(SnippetLanguage language) {
  switch (language) {
    case SnippetLanguage::Cuda:
      return "cuda-cpp";
    case SnippetLanguage::Cpp:
      return "cpp,cuda-cpp";
    case SnippetLanguage::Python:
      return "python";
    case SnippetLanguage::Toml:
      return "toml";
  }
  return "cuda-cpp";
}

// Neovim's filetypes; a C++ binding snippet is offered in .cu files too.
std::vector<std::string> neovim_filetypes(SnippetLanguage language) {
  switch (language) {
    case SnippetLanguage::Cuda:
      return {"cuda"};
    case SnippetLanguage::Cpp:
      return {"cpp", "cuda"};
    case SnippetLanguage::Python:
      return {"python"};
    case SnippetLanguage::Toml:
      return {"toml"};
  }
  return {"cuda"};
}

ordered_json vscode_entry(const Snippet& s, bool with_scope) {
  ordered_json entry;
  entry["prefix"] = s.prefix;
  entry["body"] = body_lines(s.body);
  entry["description"] = s.description;
  if (with_scope) entry["scope"] = vscode_scope(s.language);
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
    for (const auto& filetype : neovim_filetypes(s.language)) {
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
    entry["body"] = s.body;
    entry["expanded"] = s.expanded;
    list.push_back(std::move(entry));
  }
  return {{"snippets", list}};
}

}  // namespace kl::guidance
