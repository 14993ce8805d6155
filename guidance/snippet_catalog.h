#pragma once
// The snippets kernel-lsp offers (completion) and exports (VS Code, Neovim, JSON): data files
// snippets/*.toml, each a list of [[snippet]] tables (format: snippets/README.md). Loading
// checks every body against the snippet grammar, so a broken snippet is an error at load time,
// not a surprise in an editor. Immutable once loaded; share freely.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace kl::guidance {

enum class SnippetLanguage { Cuda, Cpp, Python, Toml };

std::string_view language_name(SnippetLanguage language);  // "cuda", "cpp", "python", "toml"

struct Snippet {
  std::string id;           // stable, e.g. "rmsnorm-row"
  std::string name;         // title shown in editors
  std::string prefix;       // what the user types: "kl-rmsnorm"
  std::string description;  // one line
  SnippetLanguage language = SnippetLanguage::Cuda;
  std::string guidance;  // heading or construct of the skill section that explains it
  bool compile = true;   // CUDA only: nvcc must compile the expansion
  std::string body;      // snippet syntax, without the leading newline of the TOML string
  std::string expanded;  // body with every placeholder at its default
  std::string source;    // file it came from
};

class SnippetCatalog {
 public:
  // Every snippets/*.toml of `folder` in name order; ids and prefixes must be unique.
  static Result<SnippetCatalog> load(const std::filesystem::path& folder);
  // One file's text (tests).
  static Result<SnippetCatalog> parse(std::string_view toml_text, const std::string& source_name);
  // The snippets folder from the resources (find_resource("snippets")).
  static Result<SnippetCatalog> load_bundled();
  // Loaded once; empty (with a logged warning) when the folder is missing or broken.
  static const SnippetCatalog& bundled();

  const std::vector<Snippet>& all() const { return snippets_; }
  const Snippet* find(std::string_view id) const;

 private:
  Result<bool> add(std::string_view toml_text, const std::string& source_name);
  std::vector<Snippet> snippets_;
};

}  // namespace kl::guidance
