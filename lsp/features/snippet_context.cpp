#include "lsp/features/snippet_context.h"

#include <algorithm>
#include <array>
#include <string>

#include "lsp/features/cxx_scope_scan.h"
#include "support/file_kinds.h"

namespace kl::lsp {
namespace {

using guidance::SnippetContext;

// Where the document sits in its kernel project: the folders between the project root and it.
struct ProjectPlace {
  bool inside = false;
  std::string top;  // first folder below the root ("tests", "torch-ext", ...); empty for the root itself
  bool under_torch_ext = false;
};

ProjectPlace project_place(const SnippetDocument& document) {
  ProjectPlace place;
  if (!document.project_root) return place;
  std::filesystem::path relative = document.path.lexically_relative(*document.project_root);
  if (relative.empty() || *relative.begin() == "..") return place;
  place.inside = true;
  std::filesystem::path folders = relative.parent_path();
  for (const auto& part : folders) {
    if (place.top.empty()) place.top = part.string();
    if (part == "torch-ext") place.under_torch_ext = true;
  }
  return place;
}

SnippetFile python_file(const SnippetDocument& document, const ProjectPlace& place) {
  if (!place.inside) return SnippetFile::None;  // somebody else's Python
  const std::string name = document.path.filename().string();
  auto starts = [&](std::string_view p) { return name.rfind(p, 0) == 0; };
  auto ends = [&](std::string_view s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  if (place.top == "tests" || starts("test_") || ends("_test.py")) return SnippetFile::PythonTest;
  if (place.top == "benchmarks" || starts("bench")) return SnippetFile::PythonBenchmark;
  if (place.under_torch_ext) return SnippetFile::PythonPackage;
  return SnippetFile::None;
}

// At column 0 of a line that no string, bracket or backslash continues into.
bool python_top_level_line_start(std::string_view text, size_t offset) {
  if (offset > text.size() || (offset > 0 && text[offset - 1] != '\n')) return false;
  int depth = 0;
  size_t i = 0;
  while (i < offset) {
    const char c = text[i];
    if (c == '#') {
      i = text.find('\n', i);
      if (i == std::string_view::npos || i >= offset) return false;
      continue;
    }
    if (c == '"' || c == '\'') {
      const std::string triple(3, c);
      const bool long_string = text.compare(i, 3, triple) == 0;
      size_t j = i + (long_string ? 3 : 1);
      while (j < text.size() &&
             (long_string ? text.compare(j, 3, triple) != 0 : (text[j] != c && text[j] != '\n')))
        j += text[j] == '\\' ? 2 : 1;
      if (j >= offset) return false;  // the line starts inside the string
      i = long_string ? j + 3 : (text[j] == '\n' ? j : j + 1);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    ++i;
  }
  if (depth > 0) return false;
  size_t before = offset >= 2 ? offset - 2 : 0;  // the character before the line break
  if (before > 0 && text[before] == '\r') --before;
  return !(offset >= 2 && text[before] == '\\');
}

// build.toml: whether `offset` is at a line start (spaces aside) outside every value, the table
// it is in, and whether the file has any table at all.
struct TomlPlace {
  bool line_start = false;
  std::string table;
  bool has_table = false;
};

TomlPlace toml_place(std::string_view text, size_t offset) {
  enum class State { Code, Comment, Basic, Literal, MultiBasic, MultiLiteral };
  TomlPlace place;
  State state = State::Code;
  int depth = 0;
  bool blank = true;  // nothing but spaces since the line began
  bool recorded = false;
  std::string table;
  size_t i = 0;
  auto record = [&] {
    if (recorded || i < offset) return;
    recorded = true;
    place.line_start = i == offset && state == State::Code && depth == 0 && blank;
    place.table = table;
  };
  while (i < text.size()) {
    record();
    const char c = text[i];
    if (c == '\n' && state != State::MultiBasic && state != State::MultiLiteral) {
      if (state != State::Code) state = State::Code;  // a comment or an unterminated string ends
      blank = true;
      ++i;
      continue;
    }
    switch (state) {
      case State::Code:
        if (c == '[' && blank && depth == 0) {  // a table header: [name] or [[name]]
          const bool array = text.compare(i, 2, "[[") == 0;
          size_t close = text.find(array ? "]]" : "]", i);
          size_t line_end = text.find('\n', i);
          if (close != std::string_view::npos && close < line_end) {
            size_t from = i + (array ? 2 : 1);
            std::string name(text.substr(from, close - from));
            name.erase(0, name.find_first_not_of(" \t"));
            name.erase(name.find_last_not_of(" \t") + 1);
            table = name;
            place.has_table = true;
            const size_t end = close + (array ? 2 : 1);
            if (offset > i && offset < end) recorded = true;  // inside the header: line_start stays false
            i = end;
            blank = false;
            continue;
          }
        }
        if (c == '#') state = State::Comment;
        if (c == '"') state = text.compare(i, 3, "\"\"\"") == 0 ? State::MultiBasic : State::Basic;
        if (c == '\'') state = text.compare(i, 3, "'''") == 0 ? State::MultiLiteral : State::Literal;
        if (state == State::MultiBasic || state == State::MultiLiteral) i += 2;
        if (c == '[' || c == '{') ++depth;
        if ((c == ']' || c == '}') && depth > 0) --depth;
        break;
      case State::Comment:
        break;
      case State::Basic:
      case State::MultiBasic:
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          if (state == State::Basic)
            state = State::Code;
          else if (text.compare(i, 3, "\"\"\"") == 0)
            state = State::Code, i += 2;
        }
        break;
      case State::Literal:
      case State::MultiLiteral:
        if (c == '\'') {
          if (state == State::Literal)
            state = State::Code;
          else if (text.compare(i, 3, "'''") == 0)
            state = State::Code, i += 2;
        }
        break;
    }
    if (c != ' ' && c != '\t' && c != '\r') blank = false;
    ++i;
  }
  record();
  return place;
}

std::vector<SnippetContext> toml_contexts(std::string_view text, size_t offset) {
  TomlPlace place = toml_place(text, offset);
  if (!place.line_start) return {};
  if (!place.has_table) return {SnippetContext::BuildTomlNew};
  std::vector<SnippetContext> contexts = {SnippetContext::BuildToml};
  if (place.table.rfind("kernel.", 0) == 0) contexts.push_back(SnippetContext::BuildTomlKernel);
  return contexts;
}

std::vector<SnippetContext> cxx_contexts(SnippetFile file, std::string_view text, size_t offset) {
  const CxxPosition position = cxx_position_at(text, offset);
  if (!position.statement_start) return {};
  switch (file) {
    case SnippetFile::KernelSource:
      if (position.scope == CxxScope::FileScope) return {SnippetContext::CudaFileScope};
      if (position.scope == CxxScope::DeviceBody) return {SnippetContext::CudaDeviceCode};
      if (position.scope == CxxScope::HostBody) return {SnippetContext::CudaHostCode};
      return {};
    case SnippetFile::TorchBindingSource:
      if (position.scope == CxxScope::FileScope) return {SnippetContext::TorchBinding};
      return {};
    case SnippetFile::TorchBindingHeader:
      if (position.scope == CxxScope::FileScope) return {SnippetContext::TorchBindingHeader};
      return {};
    default:
      return {};
  }
}

}  // namespace

SnippetFile snippet_file(const SnippetDocument& document) {
  const std::string name = document.path.filename().string();
  if (name == "build.toml") return SnippetFile::BuildToml;
  const std::string ext = lowercase_extension(document.path);
  const ProjectPlace place = project_place(document);
  if (ext == ".py" || ext == ".pyi" || document.language_id == "python") return python_file(document, place);
  const SourceKind kind = source_kind(document.path);
  const bool cxx = kind == SourceKind::CxxHeader || kind == SourceKind::CxxSource;
  if (cxx && place.inside && place.under_torch_ext)
    return kind == SourceKind::CxxHeader ? SnippetFile::TorchBindingHeader : SnippetFile::TorchBindingSource;
  if (kind == SourceKind::Cuda) return SnippetFile::KernelSource;
  if (document.language_id == "cuda" || document.language_id == "cuda-cpp") return SnippetFile::KernelSource;
  // A C++ file is a kernel source only inside a kernel project (as lsp/workspace/document_kind says).
  if ((cxx || document.language_id == "cpp") && place.inside) return SnippetFile::KernelSource;
  return SnippetFile::None;
}

std::vector<SnippetContext> snippet_contexts_at(const SnippetDocument& document, size_t offset) {
  offset = std::min(offset, document.text.size());
  const SnippetFile file = snippet_file(document);
  switch (file) {
    case SnippetFile::None:
      return {};
    case SnippetFile::KernelSource:
    case SnippetFile::TorchBindingSource:
    case SnippetFile::TorchBindingHeader:
      return cxx_contexts(file, document.text, offset);
    case SnippetFile::BuildToml:
      return toml_contexts(document.text, offset);
    case SnippetFile::PythonPackage:
    case SnippetFile::PythonTest:
    case SnippetFile::PythonBenchmark: {
      if (!python_top_level_line_start(document.text, offset)) return {};
      if (file == SnippetFile::PythonTest) return {SnippetContext::PythonTest};
      if (file == SnippetFile::PythonBenchmark) return {SnippetContext::PythonBenchmark};
      return {SnippetContext::PythonPackage};
    }
  }
  return {};
}

}  // namespace kl::lsp
