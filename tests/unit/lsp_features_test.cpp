// Feature logic on plain data: outline, suppression edits, hover text, document kinds,
// settings, and the JSON shapes of diagnostics and code actions.
#include <algorithm>
#include <catch2/catch.hpp>

#include "lsp/features/document_symbols.h"
#include "lsp/features/hover.h"
#include "lsp/features/source_scan.h"
#include "lsp/features/suppression.h"
#include "lsp/server/code_actions_json.h"
#include "lsp/server/diagnostics_json.h"
#include "lsp/server/settings_json.h"
#include "lsp/workspace/document_kind.h"

using kl::lsp::json;
using kl::lsp::SymbolKind;
namespace an = kl::analyzers;

const char* kSource = R"cu(#include <torch/all.h>
// __global__ void commented_out() {}
template <typename T>
__global__ void __launch_bounds__(256) scale_kernel(T* out, const T* in, float s) {
  out[threadIdx.x] = in[threadIdx.x] * s;
}

__device__ __forceinline__ float warp_sum(float v) {
  return v;
}

__device__ int counter;
__device__ float declared_only(float);

TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("scale(Tensor! out, Tensor input, float s) -> ()");
  ops.impl("scale", torch::kCUDA, &scale);
}
)cu";

TEST_CASE("blanking keeps offsets and removes comments and literals", "[scan]") {
  std::string text = "a // x\nb /* y\n z */ \"s\\\"t\" 'c' 1'000";
  std::string blank = kl::blank_comments_and_literals(text);
  CHECK(blank.size() == text.size());
  CHECK(blank.find('x') == std::string::npos);
  CHECK(blank.find('y') == std::string::npos);
  CHECK(blank.find('s') == std::string::npos);
  CHECK(blank.find('c') == std::string::npos);
  CHECK(blank.find("1'000") != std::string::npos);
  CHECK(std::count(blank.begin(), blank.end(), '\n') == 2);
}

TEST_CASE("the outline has kernels, device functions and bindings from a scan", "[symbols]") {
  auto symbols = kl::lsp::document_symbols(kSource, nullptr);
  REQUIRE(symbols.size() == 3);
  CHECK(symbols[0].name == "scale_kernel");
  CHECK(symbols[0].kind == SymbolKind::Kernel);
  CHECK(symbols[0].selection.start.line == 3);
  CHECK(symbols[0].range.end.line == 5);
  CHECK(symbols[1].name == "warp_sum");
  CHECK(symbols[1].kind == SymbolKind::DeviceFunction);
  CHECK(symbols[2].kind == SymbolKind::Library);
  CHECK(symbols[2].name == "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops)");
  REQUIRE(symbols[2].children.size() == 2);
  CHECK(symbols[2].children[0].name == "scale");
  CHECK(symbols[2].children[0].detail == "scale(Tensor! out, Tensor input, float s) -> ()");
  CHECK(symbols[2].children[1].detail == "impl");
  for (const auto& s : symbols) {
    CHECK_FALSE(s.selection.start < s.range.start);
    CHECK_FALSE(s.range.end < s.selection.end);
  }
}

TEST_CASE("kernels come from the parse's facts when there are some", "[symbols]") {
  an::UnitFacts facts;
  an::KernelInfo kernel;
  kernel.name = "scale_kernel";
  kernel.qualified_name = "scale_kernel<T>";
  kernel.location.range = {{3, 39}, {3, 51}};
  kernel.body_range = {{2, 0}, {5, 1}};
  kernel.max_threads_per_block = 256;
  facts.kernels.push_back(kernel);
  auto symbols = kl::lsp::document_symbols(kSource, &facts);
  REQUIRE(symbols.size() == 3);
  CHECK(symbols[0].detail == "__global__ __launch_bounds__(256)");
  CHECK(symbols[0].range.start.line == 2);
}

TEST_CASE("suppression goes on its own line above, indented like the code", "[suppression]") {
  std::string text = "void f() {\n    use(x);\n}\n";
  auto edit = kl::lsp::suppression_edit(text, "f.cu", 1, "arch-mismatch");
  REQUIRE(edit);
  CHECK(edit->range.start.line == 1);
  CHECK(edit->range.start.column == 0);
  CHECK(edit->new_text == "    // kernel-lsp: ignore[arch-mismatch]\n");
  std::string suppressed = "  // kernel-lsp: ignore[arch-mismatch]\n  use(x);\n";
  CHECK_FALSE(kl::lsp::suppression_edit(suppressed, "f.cu", 1, "arch-mismatch"));
  CHECK(kl::lsp::suppression_edit(suppressed, "f.cu", 1, "smem-limit"));
  auto crlf = kl::lsp::suppression_edit("a\r\n\tb\r\n", "f.cu", 1, "r");
  REQUIRE(crlf);
  CHECK(crlf->new_text == "\t// kernel-lsp: ignore[r]\r\n");
}

TEST_CASE("documents are classified by language id, then by extension", "[kinds]") {
  using kl::lsp::classify_document;
  using kl::lsp::DocumentKind;
  CHECK(classify_document("cuda-cpp", "/p/a.cu", false) == DocumentKind::Source);
  CHECK(classify_document("cuda", "/p/a.cuh", false) == DocumentKind::Source);
  CHECK(classify_document("cpp", "/p/a.cu", false) == DocumentKind::Source);
  CHECK(classify_document("cpp", "/p/a.cpp", false) == DocumentKind::Other);
  CHECK(classify_document("cpp", "/p/torch_binding.cpp", true) == DocumentKind::Source);
  CHECK(classify_document("c", "/p/ops.h", true) == DocumentKind::Source);
  CHECK(classify_document("toml", "/p/build.toml", false) == DocumentKind::BuildToml);
  CHECK(classify_document("markdown", "/p/my-skill/SKILL.md", false) == DocumentKind::Skill);
  CHECK(classify_document("markdown", "/p/README.md", true) == DocumentKind::Other);
  CHECK(classify_document("toml", "/p/pyproject.toml", true) == DocumentKind::Other);
  CHECK(classify_document("python", "/p/x.py", true) == DocumentKind::Other);
}

TEST_CASE("settings merge from either shape and report bad values", "[settings]") {
  kl::lsp::Settings settings;
  std::vector<std::string> problems;
  kl::lsp::merge_settings(settings,
                          json{{"kernelLsp",
                                {{"cudaPath", "/opt/cuda"},
                                 {"extraFlags", {"-DX=1"}},
                                 {"defaultArchs", {"8.0", "9.0a"}},
                                 {"severities", {{"uncoalesced-access", "error"}, {"smem-limit", "off"}}},
                                 {"disabledRules", {"misaligned-access"}},
                                 {"debounceMs", 0},
                                 {"path", "/ignored/by/the/server"}}}},
                          problems);
  CHECK(problems.empty());
  CHECK(settings.cuda_path == std::filesystem::path("/opt/cuda"));
  CHECK(settings.debounce_ms == 0u);
  auto conversion = kl::lsp::to_analysis_settings(settings);
  CHECK(conversion.problems.empty());
  CHECK(conversion.settings.cache_parses);
  CHECK(conversion.settings.default_archs.size() == 2);
  CHECK(conversion.settings.severity_overrides.at("uncoalesced-access") == an::Severity::Error);
  CHECK(conversion.settings.disabled_rules.count("smem-limit") == 1);
  CHECK(conversion.settings.disabled_rules.count("misaligned-access") == 1);

  kl::lsp::merge_settings(settings, json{{"extraFlags", "nope"}, {"debounceMs", -1}, {"cudaPath", ""}},
                          problems);
  CHECK(problems.size() == 2);
  CHECK_FALSE(settings.cuda_path);
  CHECK(settings.extra_flags == std::vector<std::string>{"-DX=1"});
  settings.default_archs = {"banana"};
  CHECK(kl::lsp::to_analysis_settings(settings).problems.size() == 1);

  // Rule ids are the catalog's: a misspelt one is a problem, with the id it was likely meant as.
  settings.default_archs.clear();
  settings.disabled_rules = {"skill", "smem-limits"};
  settings.severities = {{"uncoalesced-acess", "error"}, {"frontend", "off"}};
  auto misspelt = kl::lsp::to_analysis_settings(settings).problems;
  REQUIRE(misspelt.size() == 2);
  CHECK(misspelt[0] == "disabledRules: no rule is called `smem-limits`; did you mean `smem-limit`?");
  CHECK(misspelt[1] == "severities: no rule is called `uncoalesced-acess`; did you mean `uncoalesced-access`?");
}

TEST_CASE("docsBaseUrl takes an absolute URL, refuses anything else, and \"\" restores the default",
          "[settings]") {
  kl::lsp::Settings settings;
  std::vector<std::string> problems;
  kl::lsp::merge_settings(settings, json{{"docsBaseUrl", "https://docs.example.org/kl"}}, problems);
  CHECK(problems.empty());
  CHECK(settings.docs_base_url == "https://docs.example.org/kl");
  kl::lsp::merge_settings(settings, json{{"docsBaseUrl", "docs/rules"}}, problems);
  kl::lsp::merge_settings(settings, json{{"docsBaseUrl", 3}}, problems);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].rfind("kernelLsp.docsBaseUrl: `docs/rules` is not an absolute URL", 0) == 0);
  CHECK(problems[1] == "kernelLsp.docsBaseUrl must be a URL (string)");
  CHECK(settings.docs_base_url == "https://docs.example.org/kl");  // bad values are ignored
  kl::lsp::merge_settings(settings, json{{"docsBaseUrl", ""}}, problems);
  CHECK(settings.docs_base_url.empty());
}

namespace {

an::Finding sample_finding(const std::string& file, const std::string& toml) {
  an::Finding f;
  f.rule_id = "arch-mismatch";
  f.severity = an::Severity::Error;
  f.location = {file, {{0, 7}, {0, 24}}};
  f.message = "__reduce_add_sync needs sm_80; build.toml builds sm_75 (guard it)";
  f.notes.push_back({{toml, {{2, 24}, {2, 29}}}, "sm_75 comes from here"});
  f.fixes.push_back({"Guard with #if __CUDA_ARCH__ >= 800", {{file, {{0, 0}, {0, 0}}, "#if X\n"}}});
  return f;
}

}  // namespace

TEST_CASE("findings become LSP diagnostics with code, link, notes and fixes", "[diagnostics]") {
  const std::string file = "/p/k.cu", toml = "/p/build.toml";
  auto source = std::make_shared<const std::string>("// é  __reduce_add_sync(m, v);\n");
  auto toml_text =
      std::make_shared<const std::string>("[kernel.x]\nbackend = \"cuda\"\ncuda-capabilities = [\"7.5\"]\n");
  kl::lsp::ConverterCache cache(kl::lsp::PositionEncoding::Utf16, [&](const std::filesystem::path& p) {
    return p == toml ? toml_text : nullptr;
  });
  cache.add(file, source);
  kl::lsp::ClientCapabilities client;
  const auto links = kl::guidance::GuidanceLinks::under_base("https://docs.example.org/kernel-lsp/");
  json diagnostics = kl::lsp::to_lsp_diagnostics({sample_finding(file, toml)}, file, cache, client, links);
  REQUIRE(diagnostics.size() == 1);
  const json& d = diagnostics[0];
  CHECK(d["source"] == "kernel-lsp");
  CHECK(d["code"] == "arch-mismatch");
  CHECK(d["severity"] == 1);
  CHECK(d["codeDescription"]["href"] ==
        "https://docs.example.org/kernel-lsp/references/rules/arch-mismatch.md");
  CHECK(d["range"]["start"]["character"] == 6);  // byte 7 is UTF-16 column 6 after "é"
  CHECK(d["relatedInformation"][0]["location"]["uri"] == "file:///p/build.toml");
  CHECK(d["relatedInformation"][0]["location"]["range"]["start"]["line"] == 2);
  CHECK(d["data"]["fixes"][0]["title"] == "Guard with #if __CUDA_ARCH__ >= 800");
  CHECK(d["data"]["fixes"][0]["edit"]["changes"]["file:///p/k.cu"][0]["newText"] == "#if X\n");

  client.related_information = false;
  client.code_description = false;
  json plain = kl::lsp::to_lsp_diagnostics({sample_finding(file, toml)}, file, cache, client, links);
  CHECK_FALSE(plain[0].contains("relatedInformation"));
  CHECK_FALSE(plain[0].contains("codeDescription"));

  // No page, no link: an id that names no rule gets no codeDescription rather than a dead one.
  client.code_description = true;
  an::Finding unknown = sample_finding(file, toml);
  unknown.rule_id = "no-such-rule";
  CHECK_FALSE(
      kl::lsp::to_lsp_diagnostics({unknown}, file, cache, client, links)[0].contains("codeDescription"));
}

TEST_CASE("code actions: the finding's fixes, then a suppression", "[code-actions]") {
  std::string text = "void f() {\n  __reduce_add_sync(m, v);\n}\n";
  json diagnostic = {
      {"range", {{"start", {{"line", 1}, {"character", 2}}}, {"end", {{"line", 1}, {"character", 19}}}}},
      {"source", "kernel-lsp"},
      {"code", "arch-mismatch"},
      {"message", "m"},
      {"data", {{"fixes", {{{"title", "Guard"}, {"edit", {{"changes", json::object()}}}}}}}}};
  json foreign = diagnostic;
  foreign["source"] = "clangd";
  json params = {{"textDocument", {{"uri", "file:///p/k.cu"}}},
                 {"range", diagnostic["range"]},
                 {"context", {{"diagnostics", {diagnostic, foreign}}}}};
  json actions = kl::lsp::code_actions(params, text, kl::lsp::DocumentKind::Source);
  REQUIRE(actions.size() == 2);
  CHECK(actions[0]["title"] == "Guard");
  CHECK(actions[0]["isPreferred"] == true);
  CHECK(actions[1]["title"] == "Suppress arch-mismatch on this line");
  json edit = actions[1]["edit"]["changes"]["file:///p/k.cu"][0];
  CHECK(edit["newText"] == "  // kernel-lsp: ignore[arch-mismatch]\n");
  CHECK(edit["range"]["start"]["line"] == 1);

  params["context"]["only"] = {"refactor"};
  CHECK(kl::lsp::code_actions(params, text, kl::lsp::DocumentKind::Source).empty());
  params["context"].erase("only");
  CHECK(kl::lsp::code_actions(params, text, kl::lsp::DocumentKind::BuildToml).size() == 1);
  CHECK_THROWS_AS(
      kl::lsp::code_actions(json{{"textDocument", {{"uri", "x"}}}}, text, kl::lsp::DocumentKind::Source),
      kl::lsp::RpcException);
}

TEST_CASE("hover on a kernel describes its resources and targets", "[hover]") {
  an::FileAnalysis analysis;
  an::KernelInfo kernel;
  kernel.name = "scale_kernel";
  kernel.qualified_name = "scale_kernel<T>";
  kernel.location = {"/p/k.cu", {{3, 39}, {3, 51}}};
  kernel.body_range = {{2, 0}, {5, 1}};
  kernel.max_threads_per_block = 256;
  kernel.static_shared_bytes = 4096;
  kernel.shared_variables.push_back({"tile", {}, 4096, false, 16});
  analysis.facts.kernels.push_back(kernel);
  analysis.archs.archs = {*an::parse_capability("7.5"), *an::parse_capability("8.0")};
  analysis.archs.origin = "build.toml";
  analysis.archs.origin_location = an::Location{"/p/build.toml", {{6, 20}, {6, 34}}};
  an::Finding finding;
  finding.rule_id = "uncoalesced-access";
  finding.severity = an::Severity::Warning;
  finding.location = {"/p/k.cu", {{4, 2}, {4, 10}}};
  analysis.findings.push_back(finding);

  auto hover = kl::lsp::hover_at(analysis, kSource, {3, 45}, nullptr);
  REQUIRE(hover);
  CHECK(hover->range.start == an::Position{3, 39});
  CHECK(hover->range.end == an::Position{3, 51});
  CHECK_THAT(hover->markdown, Catch::Contains("at most 256 threads per block"));
  CHECK_THAT(hover->markdown, Catch::Contains("4 KiB"));
  CHECK_THAT(hover->markdown, Catch::Contains("sm_75, sm_80 (from build.toml line 7)"));
  CHECK_THAT(hover->markdown, Catch::Contains("1 warning `uncoalesced-access`"));
  CHECK_FALSE(kl::lsp::hover_at(analysis, kSource, {0, 0}, nullptr));  // '#'
}

TEST_CASE("hover on an intrinsic gives its minimum architecture from the feature table", "[hover]") {
  an::FileAnalysis analysis;
  analysis.archs.archs = {*an::parse_capability("7.5"), *an::parse_capability("9.0")};
  const auto& table = an::FeatureTable::builtin();
  std::string text = "  int s = __reduce_add_sync(0xffffffffu, v);\n";
  auto hover = kl::lsp::hover_at(analysis, text, {0, 14}, &table);
  REQUIRE(hover);
  CHECK_THAT(hover->markdown, Catch::Contains("__reduce_add_sync"));
  CHECK_THAT(hover->markdown, Catch::Contains("8.0"));
  CHECK_THAT(hover->markdown, Catch::Contains("sm_75 ✗"));
  CHECK_THAT(hover->markdown, Catch::Contains("sm_90 ✓"));
  CHECK_FALSE(kl::lsp::hover_at(analysis, text, {0, 4}, &table));  // 's': nothing to say

  // A finding on the use is named, not repeated: the editor shows its message in the same hover.
  an::Finding finding;
  finding.rule_id = "arch-mismatch";
  finding.severity = an::Severity::Error;
  finding.location = {"/p/k.cu", {{0, 10}, {0, 27}}};
  finding.message = "`__reduce_add_sync` needs compute capability 8.0 or newer, but build.toml builds this code for 7.5";
  analysis.findings.push_back(finding);
  auto with_finding = kl::lsp::hover_at(analysis, text, {0, 14}, &table);
  REQUIRE(with_finding);
  CHECK_THAT(with_finding->markdown, Catch::Contains("**Reported here:** `arch-mismatch`"));
  CHECK_THAT(with_finding->markdown, !Catch::Contains("but build.toml builds this code"));
}
