#include "cli/snippets_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "guidance/snippet_catalog.h"
#include "guidance/snippet_export.h"

namespace kl::cli {
namespace {

namespace fs = std::filesystem;

struct SnippetsOptions {
  bool json = false;
  std::string format;
  std::string output;
};

bool write_text(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "kernel-lsp: cannot write " << path.string() << "\n";
    return false;
  }
  return true;
}

int run_list(const guidance::SnippetCatalog& catalog, const SnippetsOptions& options) {
  if (options.json) {
    std::cout << guidance::export_snippets_json(catalog).dump(2) << "\n";
    return 0;
  }
  for (const auto& s : catalog.all())
    std::cout << s.prefix << "  [" << guidance::language_name(s.language) << "]  " << s.name << "\n    "
              << s.description << "\n";
  return 0;
}

int run_export(const guidance::SnippetCatalog& catalog, const SnippetsOptions& options) {
  if (options.format == "neovim") {
    auto files = guidance::export_neovim_snippets(catalog);
    if (options.output.empty()) {
      nlohmann::ordered_json all = nlohmann::ordered_json::object();
      for (const auto& [name, content] : files) all[name] = content;
      std::cout << all.dump(2) << "\n";
      return 0;
    }
    for (const auto& [name, content] : files)
      if (!write_text(fs::path(options.output) / name, content.dump(2) + "\n")) return 2;
    std::cerr << "wrote " << files.size() << " files to " << options.output
              << "; load with require(\"luasnip.loaders.from_vscode\").lazy_load({ paths = { \""
              << options.output << "\" } })\n";
    return 0;
  }
  nlohmann::ordered_json document =
      options.format == "vscode" ? guidance::export_vscode_snippets(catalog) : guidance::export_snippets_json(catalog);
  std::string text = document.dump(2) + "\n";
  if (options.output.empty()) {
    std::cout << text;
    return 0;
  }
  if (!write_text(options.output, text)) return 2;
  std::cerr << "wrote " << catalog.all().size() << " snippets to " << options.output << "\n";
  return 0;
}

}  // namespace

RegisteredCommand add_snippets_command(CLI::App& app) {
  auto options = std::make_shared<SnippetsOptions>();
  CLI::App* snippets = app.add_subcommand("snippets", "List and export CUDA kernel and binding snippets");
  snippets->require_subcommand(1);
  CLI::App* list = snippets->add_subcommand("list", "Snippets: prefix, language, name, description");
  list->add_flag("--json", options->json, "Print JSON");
  CLI::App* exporter = snippets->add_subcommand("export", "Write snippets in an editor's format");
  exporter->add_option("--format", options->format, "vscode | neovim | json")
      ->required()
      ->check(CLI::IsMember({"vscode", "neovim", "json"}));
  exporter->add_option("--output", options->output,
                       "File to write (neovim: a folder for package.json + <filetype>.json); default stdout");
  return {snippets, [options, list, exporter]() {
            auto loaded = guidance::SnippetCatalog::load_bundled();
            if (!loaded) {
              std::cerr << "kernel-lsp: " << loaded.error().describe() << "\n";
              return 2;
            }
            if (list->parsed()) return run_list(*loaded, *options);
            if (exporter->parsed()) return run_export(*loaded, *options);
            return 2;
          }};
}

}  // namespace kl::cli
