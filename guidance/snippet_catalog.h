#pragma once
// The snippets kernel-lsp offers (completion) and exports (VS Code, Neovim, JSON): data files
// snippets/*.toml, each a list of [[snippet]] tables (format: snippets/README.md). Each snippet
// names the contexts where it makes sense (file scope of a .cu, inside a kernel body, a
// torch-ext binding, build.toml, a kernel project's tests...); the language server decides which
// contexts hold at the cursor (lsp/features/snippet_context.h). Loading checks every body
// against the snippet grammar and every context against the language, so a broken snippet is an
// error at load time, not a surprise in an editor. Immutable once loaded; share freely.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace kl::guidance {

enum class SnippetLanguage { Cuda, Cpp, Python, Toml };

std::string_view language_name(SnippetLanguage language);  // "cuda", "cpp", "python", "toml"

// Where a snippet makes sense. The names are the data's (`context = "cuda-device-code"`).
enum class SnippetContext {
  CudaFileScope,       // "cuda-file-scope": a declaration at file or namespace scope of a kernel source
  CudaDeviceCode,      // "cuda-device-code": a statement in a __global__ / __device__ function body
  CudaHostCode,        // "cuda-host-code": a statement in a host function body of a kernel source
  TorchBinding,        // "torch-binding": file scope of a torch-ext/ C++ source (.cpp, .cc)
  TorchBindingHeader,  // "torch-binding-header": file scope of a torch-ext/ header (.h, .hpp)
  BuildTomlNew,        // "build-toml-new": a build.toml that has no table yet (the whole file)
  BuildToml,           // "build-toml": a line start between tables and keys of a build.toml with tables
  BuildTomlKernel,     // "build-toml-kernel": the same, inside a [kernel.*] table (its keys)
  PythonPackage,       // "python-package": top level of a kernel project's torch-ext/**.py
  PythonTest,          // "python-test": top level of a kernel project's tests/**.py (or test_*.py)
  PythonBenchmark,     // "python-benchmark": top level of a kernel project's benchmarks/**.py
};

std::string_view context_name(SnippetContext context);
std::optional<SnippetContext> parse_context(std::string_view name);
// The language a context's documents are written in (CUDA for cuda-*, C++ for torch-binding*).
SnippetLanguage context_language(SnippetContext context);
// What a snippet without a `context` key gets: the contexts its language had before the key.
std::vector<SnippetContext> default_contexts(SnippetLanguage language);

struct Snippet {
  std::string id;           // stable, e.g. "rmsnorm-row"
  std::string name;         // title shown in editors
  std::string prefix;       // what the user types: "kl-rmsnorm"
  std::string description;  // one line
  SnippetLanguage language = SnippetLanguage::Cuda;
  std::string guidance;                  // heading or construct of the skill section that explains it
  std::vector<SnippetContext> contexts;  // never empty; all of the snippet's language
  bool compile = true;                   // CUDA only: nvcc must compile the expansion
  // CUDA fragments (a statement block for a kernel body): the translation unit the compile check
  // puts the expansion in, at the line `{{snippet}}`. Empty for whole translation units.
  std::string compile_wrapper;
  std::string body;      // snippet syntax, without the leading newline of the TOML string
  std::string expanded;  // body with every placeholder at its default
  std::string source;    // file it came from

  bool offered_in(SnippetContext context) const;
  // What nvcc and `kernel-lsp lint` check: the expansion, inside compile_wrapper when there is one.
  std::string compilation_unit() const;
};

// The line of a compile_wrapper that the expansion replaces.
inline constexpr std::string_view kSnippetMarker = "{{snippet}}";

class SnippetCatalog {
 public:
  // Every snippets/*.toml of `folder` in name order; ids and prefixes must be unique.
  static Result<SnippetCatalog> load(const std::filesystem::path& folder);
  // One file's text (tests).
  static Result<SnippetCatalog> parse(std::string_view toml_text, const std::string& source_name);
  // The snippets folder from the resources (the folder of resources::kSnippetConstructs).
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
