#pragma once
// Snippets in the formats editors read. Pure; JSON values (nlohmann) that the caller prints.
//  - VS Code / Cursor: one `.code-snippets` file: {"<name>": {"prefix", "body": [lines],
//    "description", "scope"}}; scope = the languages of the snippet's contexts: "cuda-cpp" for
//    the cuda-* contexts, "cpp" for torch-binding*, "python", "toml". (A static file cannot tell
//    a kernel body from file scope; the language server can.)
//  - Neovim: a VS Code-style snippet package, which LuaSnip
//    (require("luasnip.loaders.from_vscode").lazy_load{paths = {DIR}}), nvim-snippets and
//    blink.cmp load: package.json (contributes.snippets → one file per filetype) plus
//    cuda.json, cpp.json, python.json, toml.json (filetypes from the contexts' languages), each
//    in the VS Code snippet format. Returned as file name → content.
//  - JSON: {"snippets": [{id, name, prefix, description, language, guidance, context: [names],
//    body, expanded}]} for agents and scripts.
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "guidance/snippet_catalog.h"

namespace kl::guidance {

nlohmann::ordered_json export_vscode_snippets(const SnippetCatalog& catalog);
std::map<std::string, nlohmann::ordered_json> export_neovim_snippets(const SnippetCatalog& catalog);
nlohmann::ordered_json export_snippets_json(const SnippetCatalog& catalog);

// The body as VS Code wants it: one string per line.
nlohmann::ordered_json body_lines(const std::string& body);

}  // namespace kl::guidance
