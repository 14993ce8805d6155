#pragma once
// Which snippet contexts (guidance::SnippetContext, named in snippets/*.toml) hold at a place of
// a document, from its path, language id and text alone: no parse, no LSP types.
//  - kernel sources (.cu, .cuh; .h/.cpp/... of a kernel project outside torch-ext/):
//    cuda-file-scope where a declaration may start at file or namespace scope, cuda-device-code
//    where a statement may start in a __global__/__device__ body, cuda-host-code in a host body
//    (cxx_scope_scan.h);
//  - torch-ext/ C++ of a kernel project: torch-binding (.cpp, .cc, ...) or torch-binding-header
//    (.h, .hpp, ...) where a declaration may start at file scope;
//  - build.toml, at the start of a line outside every value: build-toml-new while the file has
//    no table, else build-toml, plus build-toml-kernel inside a [kernel.*] table;
//  - a kernel project's .py, at column 0 of a line outside strings, comments and brackets:
//    python-test (tests/, test_*.py, *_test.py), python-benchmark (benchmarks/, bench*.py),
//    python-package (torch-ext/).
// Nothing anywhere else: not in a comment, a string or a directive, not inside parentheses or an
// initialiser, not after the start of a declaration or statement, and not in a .py or C++ file
// outside a kernel project. Pure; O(text).
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "guidance/snippet_catalog.h"

namespace kl::lsp {

struct SnippetDocument {
  std::filesystem::path path;
  std::string_view language_id;  // the editor's, a hint: "cuda", "cuda-cpp", "cpp", "python", "toml"
  std::string_view text;
  // The folder of the nearest build.toml above the document (its kernel project), if any.
  std::optional<std::filesystem::path> project_root;
};

// What kind of file the document is, as far as snippets go.
enum class SnippetFile {
  None,
  KernelSource,
  TorchBindingSource,
  TorchBindingHeader,
  BuildToml,
  PythonPackage,
  PythonTest,
  PythonBenchmark,
};

SnippetFile snippet_file(const SnippetDocument& document);

// The contexts at byte `offset` (where the snippet's text would begin: the start of the word
// being typed). Empty where no snippet belongs.
std::vector<guidance::SnippetContext> snippet_contexts_at(const SnippetDocument& document, size_t offset);

}  // namespace kl::lsp
