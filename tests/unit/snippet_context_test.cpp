// Snippet contexts (lsp/features/snippet_context.h, cxx_scope_scan.h) and the completions built
// on them (completion_snippets.h), as specifications: each case is a document with `@` where
// the word being typed begins, and the contexts expected there. Pure: no files are read, except
// the bundled snippets/*.toml for the completion cases.
#include "lsp/features/snippet_context.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "lsp/features/completion_snippets.h"
#include "lsp/features/cxx_scope_scan.h"
#include "tests/unit/snippet_test_support.h"

namespace fs = std::filesystem;
using kl::guidance::SnippetContext;
using kl::lsp::SnippetDocument;

namespace {

const fs::path kRoot = "/work/proj";  // a kernel project (its build.toml is not read)

// Contexts where `@` stands (the marker is removed from the text first).
std::set<SnippetContext> at(const std::string& marked, const fs::path& file, std::string_view language = "",
                            std::optional<fs::path> root = kRoot) {
  const size_t offset = marked.find('@');
  REQUIRE(offset != std::string::npos);
  const std::string text = marked.substr(0, offset) + marked.substr(offset + 1);
  SnippetDocument document{file, language, text, root};
  auto contexts = kl::lsp::snippet_contexts_at(document, offset);
  return {contexts.begin(), contexts.end()};
}

std::set<SnippetContext> cu(const std::string& marked) {
  return at(marked, kRoot / "k_cuda/k.cu", "cuda-cpp");
}

const std::set<SnippetContext> kNone;
const std::set<SnippetContext> kFile = {SnippetContext::CudaFileScope};
const std::set<SnippetContext> kDevice = {SnippetContext::CudaDeviceCode};
const std::set<SnippetContext> kHost = {SnippetContext::CudaHostCode};

const kl::guidance::SnippetCatalog& catalog() { return kl::guidance::testing::repository_snippets(); }

// Prefixes offered with the cursor at the end of the line that holds `@`: the word typed is
// the rest of that line after `@`. Checks that each item replaces exactly that word.
std::set<std::string> offered(const std::string& marked, const fs::path& file,
                              std::string_view language = "") {
  const size_t offset = marked.find('@');
  REQUIRE(offset != std::string::npos);
  const std::string text = marked.substr(0, offset) + marked.substr(offset + 1);
  size_t line_start = 0;
  if (size_t newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
      newline != std::string::npos)
    line_start = newline + 1;
  const size_t line_end = std::min(text.find('\n', offset), text.size());
  const auto line = static_cast<uint32_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  const auto word_begin = static_cast<uint32_t>(offset - line_start);
  const auto cursor = static_cast<uint32_t>(line_end - line_start);
  SnippetDocument document{file, language, text, kRoot};
  std::set<std::string> prefixes;
  for (const auto& item : kl::lsp::snippet_completions(catalog(), nullptr, document, {line, cursor})) {
    prefixes.insert(item.snippet->prefix);
    CHECK(item.replace.start == kl::analyzers::Position{line, word_begin});
    CHECK(item.replace.end == kl::analyzers::Position{line, cursor});
  }
  return prefixes;
}

bool has(const std::set<std::string>& prefixes, const std::string& prefix) {
  return prefixes.count(prefix) > 0;
}

}  // namespace

TEST_CASE("kernel sources: file scope, device bodies, host bodies", "[snippets]") {
  CHECK(cu("@") == kFile);
  CHECK(cu("#include <cuda_runtime.h>\n#include <cstdint>\n\n@") == kFile);
  CHECK(cu("__global__ void k(float* x) {\n  @\n}\n") == kDevice);
  CHECK(cu("__global__ void __launch_bounds__(256) k(float* x) {\n  x[0] = 1;\n  @\n}\n") == kDevice);
  CHECK(cu("__device__ __forceinline__ float f(float v) {\n  @\n}\n") == kDevice);
  CHECK(cu("__host__ __device__ inline float f(float v) {\n  @\n}\n") == kDevice);
  CHECK(cu("template <typename T, int N = 4>\n__global__ void k(T* x) {\n  @\n}\n") == kDevice);
  CHECK(cu("cudaError_t launch(float* x, cudaStream_t s) {\n  @\n}\n") == kHost);
  CHECK(cu("__global__ void k(float* x) {\n  x[0] = 1;\n}\n@") == kFile);
  CHECK(cu("__global__ void k(float* x) {\n}\nint main() {\n  k<<<1, 1>>>(nullptr);\n}\n@\n") == kFile);
}

TEST_CASE("kernel sources: nested blocks, lambdas and local types", "[snippets]") {
  CHECK(cu("__global__ void k(float* x, int n) {\n  if (n > 0) {\n    @\n  }\n}\n") == kDevice);
  CHECK(cu("__global__ void k(float* x, int n) {\n  for (int i = 0; i < n; ++i) {\n  }\n  @\n}\n") ==
        kDevice);
  CHECK(cu("__global__ void k(int n) {\n  if (n) {\n  } else {\n    @\n  }\n}\n") == kDevice);
  CHECK(cu("__global__ void k(int n) {\n  auto f = [&](int i) {\n    @\n  };\n}\n") == kDevice);
  CHECK(cu("__global__ void k(int n) {\n  auto f = [&] {\n    @\n  };\n}\n") == kDevice);
  CHECK(cu("__global__ void k(int n) {\n  __shared__ float s[32];\n#pragma unroll\n  @\n}\n") == kDevice);
  CHECK(cu("__global__ void k(int n) {\n  struct alignas(16) Pack {\n    @\n  };\n}\n") == kNone);
  CHECK(cu("__global__ void k(int n) {\n  struct alignas(16) Pack { float v[4]; };\n  @\n}\n") == kDevice);
  CHECK(cu("__global__ void k(int n) {\n  float a[4] = {\n    @\n  };\n}\n") == kNone);
  CHECK(cu("__global__ void k(int n) {\n  float a[4]{\n    @\n  };\n}\n") == kNone);
  CHECK(cu("__global__ void k(int n) {\n  return {\n    @") == kNone);
  CHECK(cu("struct alignas(16) Pack {\n  @\n};\n") == kNone);
  CHECK(cu("struct alignas(16) Pack {\n  float v[4];\n};\n@") == kFile);
  CHECK(cu("struct S {\n  __device__ float get() const {\n    @\n  }\n};\n") == kDevice);
  CHECK(cu("enum class Gate { SiLU,\n  @\n};\n") == kNone);
}

TEST_CASE("kernel sources: namespaces, linkage, templates, macros", "[snippets]") {
  CHECK(cu("namespace {\n@\n}  // namespace\n") == kFile);
  CHECK(cu("namespace kl::detail {\n\n@\n}\n") == kFile);
  CHECK(cu("extern \"C\" {\n@\n}\n") == kFile);
  CHECK(cu("template <typename T>\n@") == kNone);  // the declaration has begun
  CHECK(cu("__global__ void\n@") == kNone);
  CHECK(cu("constexpr int kThreads = 256;\n@") == kFile);
  CHECK(cu("REGISTER_EXTENSION(TORCH_EXTENSION_NAME)\n@") == kFile);
  CHECK(cu("REGISTER_EXTENSION(TORCH_EXTENSION_NAME) @") == kNone);  // same line: an argument?
  CHECK(cu("__constant__ float table[4] = {1, 2, 3, 4};\n@") == kFile);
  CHECK(cu("int n = 1'000'000;\n@") == kFile);
}

TEST_CASE("kernel sources: never in comments, strings, directives or expressions", "[snippets]") {
  CHECK(cu("// a comment @") == kNone);
  CHECK(cu("__global__ void k() {\n  // kl-@\n}\n") == kNone);
  CHECK(cu("/* a\n   @\n*/") == kNone);
  CHECK(cu("/* a */\n@") == kFile);
  CHECK(cu("__global__ void k() {\n  /* x */ @\n}\n") == kDevice);
  CHECK(cu("const char* s = \"@\";") == kNone);
  CHECK(cu("const char* s = R\"x(\n@\n)x\";") == kNone);
  CHECK(cu("const char c = '{';\n@") == kFile);
  CHECK(cu("#include <@") == kNone);
  CHECK(cu("#define CHECK(x) \\\n  @") == kNone);
  CHECK(cu("#define OPEN {\n@") == kFile);  // a brace in a directive opens nothing
  CHECK(cu("__global__ void k(float* x) {\n  launch(x,\n         @") == kNone);
  CHECK(cu("__global__ void k(\n    @") == kNone);
  CHECK(cu("__global__ void k(float* x) {\n  float y = x[0] +\n      @") == kNone);
  CHECK(cu("__global__ void k(float* x) {\n  x->@") == kNone);
}

TEST_CASE("kernel sources: #if branches that open a body twice", "[snippets]") {
  const std::string two_heads =
      "#if __CUDA_ARCH__ >= 800\n__global__ void k(float* x) {\n#else\n__global__ void k(float* x, int n) {\n"
      "#endif\n  x[0] = 1;\n";
  CHECK(cu(two_heads + "  @\n}\n") == kDevice);
  CHECK(cu(two_heads + "}\n@") == kFile);
  CHECK(cu("__global__ void k(float* x) {\n#if __CUDA_ARCH__ >= 800\n  @\n#endif\n}\n") == kDevice);
  CHECK(cu("__global__ void k(float* x) {\n#if __CUDA_ARCH__ >= 800\n  x[0] = 1;\n#else\n  @") == kDevice);
}

TEST_CASE("which files get which snippets", "[snippets]") {
  using kl::lsp::SnippetFile;
  auto file = [](const fs::path& path, std::string_view language = "", std::optional<fs::path> root = kRoot) {
    return kl::lsp::snippet_file({path, language, "", root});
  };
  CHECK(file(kRoot / "build.toml") == SnippetFile::BuildToml);
  CHECK(file(kRoot / "k_cuda/k.cu") == SnippetFile::KernelSource);
  CHECK(file("/elsewhere/k.cuh", "", std::nullopt) == SnippetFile::KernelSource);
  CHECK(file(kRoot / "k_cuda/k.h") == SnippetFile::KernelSource);
  CHECK(file(kRoot / "torch-ext/torch_binding.cpp", "cpp") == SnippetFile::TorchBindingSource);
  CHECK(file(kRoot / "torch-ext/torch_binding.h", "cpp") == SnippetFile::TorchBindingHeader);
  CHECK(file("/elsewhere/main.cpp", "cpp", std::nullopt) == SnippetFile::None);  // somebody else's C++
  CHECK(file(kRoot / "tests/test_k.py", "python") == SnippetFile::PythonTest);
  CHECK(file(kRoot / "test_k.py") == SnippetFile::PythonTest);
  CHECK(file(kRoot / "benchmarks/benchmark.py") == SnippetFile::PythonBenchmark);
  CHECK(file(kRoot / "torch-ext/k/__init__.py") == SnippetFile::PythonPackage);
  CHECK(file(kRoot / "setup.py") == SnippetFile::None);
  CHECK(file("/elsewhere/tests/test_k.py", "python", std::nullopt) == SnippetFile::None);
  CHECK(file(kRoot / "README.md", "markdown") == SnippetFile::None);
}

TEST_CASE("torch-ext bindings: file scope only", "[snippets]") {
  const fs::path cpp = kRoot / "torch-ext/torch_binding.cpp";
  const fs::path h = kRoot / "torch-ext/torch_binding.h";
  CHECK(at("#include \"registration.h\"\n\n@", cpp) == std::set{SnippetContext::TorchBinding});
  CHECK(at("TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {\n  @\n}\n", cpp) == kNone);
  CHECK(at("TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) "
           "{\n}\n\nREGISTER_EXTENSION(TORCH_EXTENSION_NAME)\n@",
           cpp) == std::set{SnippetContext::TorchBinding});
  CHECK(at("#pragma once\n@", h) == std::set{SnippetContext::TorchBindingHeader});
  CHECK(at("// @", h) == kNone);
}

TEST_CASE("build.toml: a new file, between tables, inside a kernel table", "[snippets]") {
  const fs::path toml = kRoot / "build.toml";
  const std::string general = "[general]\nname = \"k\"\n\n";
  CHECK(at("@", toml) == std::set{SnippetContext::BuildTomlNew});
  CHECK(at("# a comment line\n@", toml) == std::set{SnippetContext::BuildTomlNew});
  CHECK(at(general + "@", toml) == std::set{SnippetContext::BuildToml});
  CHECK(at(general + "@\n[torch]\n", toml) == std::set{SnippetContext::BuildToml});
  CHECK(at(general + "[kernel.k]\nbackend = \"cuda\"\n@", toml) ==
        std::set{SnippetContext::BuildToml, SnippetContext::BuildTomlKernel});
  CHECK(at(general + "[kernel.k]\n  @", toml) ==
        std::set{SnippetContext::BuildToml, SnippetContext::BuildTomlKernel});
  CHECK(at(general + "[kernel.k]\nsrc = [\n  @", toml) == kNone);  // inside an array
  CHECK(at(general + "version = @", toml) == kNone);               // right of a key
  CHECK(at(general + "# @", toml) == kNone);                       // a comment
  CHECK(at(general + "license = \"\"\"\n@", toml) == kNone);       // a multi-line string
  CHECK(at(general + "license = '''x'''\n@", toml) == std::set{SnippetContext::BuildToml});
  CHECK(at("[general]\n[kernel.k]\n[torch]\n@", toml) == std::set{SnippetContext::BuildToml});
}

TEST_CASE("a kernel project's Python: top level of tests, benchmarks, the package", "[snippets]") {
  const fs::path test = kRoot / "tests/test_k.py";
  CHECK(at("@", test, "python") == std::set{SnippetContext::PythonTest});
  CHECK(at("import torch\n\n@", test) == std::set{SnippetContext::PythonTest});
  CHECK(at("def f():\n    @", test) == kNone);  // indented: inside a def
  CHECK(at("\"\"\"Doc\n@", test) == kNone);     // inside a docstring
  CHECK(at("'''Doc'''\n@", test) == std::set{SnippetContext::PythonTest});
  CHECK(at("x = f(\n@", test) == kNone);      // inside brackets
  CHECK(at("x = 1 + \\\n@", test) == kNone);  // a continued line
  CHECK(at("# a comment\n@", test) == std::set{SnippetContext::PythonTest});
  CHECK(at("s = '#'  # (x\n@", test) == std::set{SnippetContext::PythonTest});
  CHECK(at("@", kRoot / "benchmarks/benchmark.py") == std::set{SnippetContext::PythonBenchmark});
  CHECK(at("@", kRoot / "torch-ext/k/__init__.py") == std::set{SnippetContext::PythonPackage});
  CHECK(at("@", kRoot / "setup.py") == kNone);
  CHECK(at("@", "/elsewhere/tests/test_k.py", "python", std::nullopt) == kNone);
}

TEST_CASE("prefix matching: the typed word starts the prefix or one of its parts", "[snippets]") {
  using kl::lsp::snippet_prefix_matches;
  CHECK(snippet_prefix_matches("kl-rmsnorm", ""));
  CHECK(snippet_prefix_matches("kl-rmsnorm", "k"));
  CHECK(snippet_prefix_matches("kl-rmsnorm", "kl-"));
  CHECK(snippet_prefix_matches("kl-rmsnorm", "KL-RMS"));
  CHECK(snippet_prefix_matches("kl-rmsnorm", "rms"));
  CHECK(snippet_prefix_matches("kl-add-rmsnorm", "add"));
  CHECK_FALSE(snippet_prefix_matches("kl-rmsnorm", "norm"));
  CHECK_FALSE(snippet_prefix_matches("kl-rmsnorm", "__sh"));
  CHECK_FALSE(snippet_prefix_matches("kl-rmsnorm", "kl-rmsnorm-x"));
}

TEST_CASE("completion: the bundled snippets where they belong, filtered by the typed word", "[snippets]") {
  const fs::path source = kRoot / "k_cuda/k.cu";
  auto file_scope = offered("#include <cuda_runtime.h>\n@kl-", source, "cuda");
  CHECK(has(file_scope, "kl-rmsnorm"));
  CHECK(has(file_scope, "kl-transpose"));
  CHECK(has(file_scope, "kl-launch-occupancy"));
  CHECK_FALSE(has(file_scope, "kl-warp-sum"));       // a fragment for kernel bodies
  CHECK_FALSE(has(file_scope, "kl-torch-library"));  // torch-ext/ only
  CHECK_FALSE(has(file_scope, "kl-build-toml"));
  CHECK_FALSE(has(file_scope, "kl-pytest"));

  auto body = offered("__global__ void k(float* out, const float* in, int64_t n) {\n  @kl-\n}\n", source);
  CHECK(has(body, "kl-warp-sum"));
  CHECK(has(body, "kl-block-sum"));
  CHECK(has(body, "kl-pack-io"));
  CHECK_FALSE(has(body, "kl-rmsnorm"));  // a whole kernel inside a kernel makes no sense
  CHECK_FALSE(has(body, "kl-elementwise"));

  CHECK(offered("#include <cuda_runtime.h>\n@kl-rope", source) ==
        std::set<std::string>{"kl-rope-half", "kl-rope-interleaved"});
  CHECK(offered("#include <cuda_runtime.h>\n@rope-i", source) ==
        std::set<std::string>{"kl-rope-interleaved"});
  CHECK(offered("__global__ void k() {\n  @__sh", source).empty());
  CHECK(offered("__global__ void k() {\n  // @kl-", source).empty());
  CHECK(offered("__global__ void k() {\n  x.@kl", source).empty());

  auto binding = offered("@kl-", kRoot / "torch-ext/torch_binding.cpp", "cpp");
  CHECK(binding == std::set<std::string>{"kl-torch-library"});
  CHECK(offered("@kl-", kRoot / "torch-ext/torch_binding.h", "cpp") ==
        std::set<std::string>{"kl-torch-binding-h"});
  CHECK(offered("@kl", kRoot / "build.toml", "toml") == std::set<std::string>{"kl-build-toml"});
  auto table = offered("[general]\nname = \"k\"\n[kernel.k]\n@kl-", kRoot / "build.toml", "toml");
  CHECK(table == std::set<std::string>{"kl-kernel-table", "kl-cuda-capabilities"});
  CHECK(offered("@kl-", kRoot / "tests/test_k.py", "python") == std::set<std::string>{"kl-pytest"});
  CHECK(offered("@kl-", kRoot / "benchmarks/bench_k.py", "python") == std::set<std::string>{"kl-benchmark"});
  CHECK(offered("@kl-", kRoot / "torch-ext/k/__init__.py", "python") == std::set<std::string>{"kl-init-py"});
  CHECK(offered("@kl-", "/elsewhere/x.py", "python").empty());
}
