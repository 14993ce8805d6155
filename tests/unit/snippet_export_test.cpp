// Snippets as data (snippets/*.toml): the grammar and default expansion, the catalog's checks,
// and the exports (VS Code .code-snippets, Neovim package, JSON) parsing as JSON with every
// snippet in them; `kernel-lsp snippets export` through the real binary.
#include "guidance/snippet_export.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "guidance/skill_catalog.h"
#include "guidance/skill_constructs.h"
#include "guidance/skill_guidance.h"
#include "guidance/snippet_catalog.h"
#include "guidance/snippet_syntax.h"
#include "support/fs_paths.h"
#include "support/process.h"

namespace guidance = kl::guidance;

namespace fs = std::filesystem;
using kl::guidance::SnippetCatalog;
using nlohmann::json;

namespace {

const fs::path kSnippets = fs::path(KL_SOURCE_DIR) / "snippets";

const guidance::SnippetCatalog& catalog() {
  static const guidance::SnippetCatalog c = [] {
    auto loaded = guidance::SnippetCatalog::load(kSnippets);
    if (!loaded) FAIL(loaded.error().describe());
    return *loaded;
  }();
  return c;
}

std::string expand(const std::string& body) {
  auto r = kl::guidance::expand_snippet_defaults(body);
  if (!r) FAIL(r.error().message);
  return *r;
}

}  // namespace

TEST_CASE("snippet grammar: placeholders expand to their defaults") {
  CHECK(expand("a ${1:x} b") == "a x b");
  CHECK(expand("${1:name}_kernel ${1}_launch $1") == "name_kernel name_launch name");  // mirrors
  CHECK(expand("$1 then ${1:late}") == "late then late");  // a mirror before its placeholder
  CHECK(expand("${1:outer ${2:inner}} $2") == "outer inner inner");
  CHECK(expand("${1|float,__half|} x") == "float x");
  CHECK(expand("end$0") == "end");
  CHECK(expand("cost \\$5 and \\} and \\\\") == "cost $5 and } and \\");
  CHECK(expand("a $ b {x} }") == "a $ b {x} }");  // lone '$' and braces are text
  CHECK(expand("${TM_FILENAME:file.cu} $TM_SELECTED_TEXT") == "file.cu ");
  CHECK(expand(R"(asm("cp.async.wait_group %0;\n" ::"n"(N));)") ==
        R"(asm("cp.async.wait_group %0;\n" ::"n"(N));)");
  CHECK_FALSE(kl::guidance::expand_snippet_defaults("${1:never closed"));
  CHECK_FALSE(kl::guidance::expand_snippet_defaults("${x/transform/}"));
  CHECK_FALSE(kl::guidance::expand_snippet_defaults("${1|a,b"));
  CHECK(kl::guidance::escape_snippet_text("a$b}c\\") == "a\\$b\\}c\\\\");
}

TEST_CASE("the bundled snippets load and cover the kernel templates and bindings") {
  const std::vector<std::string> expected = {"vectorized-elementwise",
                                             "rmsnorm-row",
                                             "block-reduction",
                                             "grid-stride-loop",
                                             "launch-bounds-kernel",
                                             "cp-async-double-buffer",
                                             "torch-library-expand",
                                             "torch-binding-header",
                                             "python-init",
                                             "build-toml"};
  for (const auto& id : expected) {
    INFO(id);
    const kl::guidance::Snippet* s = catalog().find(id);
    REQUIRE(s);
    CHECK_FALSE(s->prefix.empty());
    CHECK_FALSE(s->description.empty());
    CHECK_FALSE(s->guidance.empty());
    CHECK(s->expanded.find("${") == std::string::npos);
    CHECK(s->body.back() != '\n');
  }
  CHECK(catalog().find("cp-async-double-buffer")->expanded.find("#if __CUDA_ARCH__ >= 800") !=
        std::string::npos);
  CHECK(catalog().find("python-init")->expanded.find("from ._ops import add_op_namespace_prefix, ops") !=
        std::string::npos);
  CHECK(catalog()
            .find("torch-library-expand")
            ->expanded.find("TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops)") != std::string::npos);
  const std::string toml = catalog().find("build-toml")->expanded;
  CHECK(toml.find("edition = 5") != std::string::npos);
  CHECK(toml.find("depends = [\"torch\"]") != std::string::npos);
  CHECK(toml.find("name = \"my-kernel\"") != std::string::npos);
}

TEST_CASE("every snippet's guidance names a section of the bundled skill (its completion documentation)") {
  auto text = kl::read_file_text(kSnippets / "constructs.toml");
  REQUIRE(text);
  auto constructs = guidance::ConstructTable::parse(*text, "constructs.toml");
  REQUIRE(constructs);
  auto skills = std::make_shared<const guidance::SkillCatalog>(
      guidance::SkillCatalog::load({{fs::path(KL_SOURCE_DIR) / "skills", guidance::SkillOrigin::Bundled}}));
  guidance::SkillGuidance skill(skills, *constructs);
  for (const auto& s : catalog().all()) {
    INFO(s.id << ": guidance = " << s.guidance);
    auto section = skill.lookup({"", s.guidance, ""});  // as completion asks it
    REQUIRE(section);
    CHECK(section->markdown.size() > 100);
    std::string title = section->title, wanted = s.guidance;
    for (auto* t : {&title, &wanted})
      std::transform(t->begin(), t->end(), t->begin(), [](unsigned char c) { return std::tolower(c); });
    CHECK(title.rfind(wanted.substr(0, std::min<size_t>(wanted.size(), 12)), 0) ==
          0);  // that heading, not a search hit
  }
}

TEST_CASE("the catalog rejects broken snippet data") {
  CHECK_FALSE(
      guidance::SnippetCatalog::parse("[[snippet]]\nid = \"a\"\nprefix = \"p\"\nbody = '${1:x'\n", "t.toml"));
  CHECK_FALSE(guidance::SnippetCatalog::parse(
      "[[snippet]]\nid = \"a\"\nprefix = \"p\"\nbody = 'x'\nlanguage = \"rust\"\n", "t.toml"));
  CHECK_FALSE(
      guidance::SnippetCatalog::parse("[[snippet]]\nid = \"a\"\nbody = 'x'\n", "t.toml"));  // no prefix
  CHECK_FALSE(guidance::SnippetCatalog::parse(
      "[[snippet]]\nid = \"a\"\nprefix = \"p\"\nbody = 'x'\n[[snippet]]\nid = "
      "\"a\"\nprefix = \"q\"\nbody = 'y'\n",
      "t.toml"));  // duplicate id
  auto one = [](const std::string& extra) {
    return guidance::SnippetCatalog::parse("[[snippet]]\nid = \"a\"\nprefix = \"p\"\nbody = 'x'\n" + extra,
                                           "t.toml");
  };
  CHECK_FALSE(one("context = \"kernel-body\"\n"));  // unknown context
  CHECK_FALSE(one("context = \"python-test\"\n"));  // a CUDA snippet in Python files
  CHECK_FALSE(one("context = []\n"));
  CHECK_FALSE(one("context = 3\n"));
  CHECK_FALSE(one("context = \"cuda-device-code\"\n"));  // a fragment without a wrapper
  CHECK_FALSE(one("context = \"cuda-device-code\"\ncompile_wrapper = 'int main() {}'\n"));  // no {{snippet}}
  auto fragment =
      one("context = \"cuda-device-code\"\ncompile_wrapper = '__global__ void k() { {{snippet}} }'\n");
  REQUIRE(fragment);
  CHECK(fragment->all()[0].compilation_unit() == "__global__ void k() { x }");
  auto uncompiled = one("context = [\"cuda-device-code\", \"cuda-host-code\"]\ncompile = false\n");
  REQUIRE(uncompiled);
  CHECK(uncompiled->all()[0].contexts.size() == 2);
  auto defaulted = one("language = \"cpp\"\n");  // no `context`: what the language always had
  REQUIRE(defaulted);
  CHECK(defaulted->all()[0].offered_in(guidance::SnippetContext::TorchBinding));
  auto no_snippets = guidance::SnippetCatalog::parse("[[construct]]\nid = \"x\"\n", "constructs.toml");
  REQUIRE(no_snippets);
  CHECK(no_snippets->all().empty());
}

TEST_CASE("VS Code export: .code-snippets JSON with every snippet") {
  json vscode = json::parse(kl::guidance::export_vscode_snippets(catalog()).dump());
  REQUIRE(vscode.is_object());
  CHECK(vscode.size() == catalog().all().size());
  for (const auto& s : catalog().all()) {
    INFO(s.id);
    REQUIRE(vscode.contains(s.name));
    const json& entry = vscode[s.name];
    CHECK(entry["prefix"] == s.prefix);
    CHECK(entry["description"] == s.description);
    REQUIRE(entry["body"].is_array());
    std::string joined;
    for (size_t i = 0; i < entry["body"].size(); ++i)
      joined += (i ? "\n" : "") + entry["body"][i].get<std::string>();
    CHECK(joined == s.body);
  }
  CHECK(vscode["RMSNorm row kernel (warp reduction)"]["scope"] == "cuda-cpp");
  CHECK(vscode["build.toml (edition 5)"]["scope"] == "toml");
  CHECK(vscode[catalog().find("python-init")->name]["scope"] == "python");
  CHECK(vscode[catalog().find("torch-library-expand")->name]["scope"] == "cpp");  // torch-ext/ C++ only
  CHECK(vscode[catalog().find("warp-sum")->name]["scope"] == "cuda-cpp");
}

TEST_CASE("Neovim export: a VS Code-style package LuaSnip loads") {
  auto files = kl::guidance::export_neovim_snippets(catalog());
  REQUIRE(files.count("package.json"));
  json package = json::parse(files["package.json"].dump());
  const json& contributes = package["contributes"]["snippets"];
  REQUIRE(contributes.is_array());
  size_t total = 0;
  std::set<std::string> seen;
  for (const auto& entry : contributes) {
    std::string file = entry["path"].get<std::string>().substr(2);  // "./cuda.json"
    REQUIRE(files.count(file));
    json snippets = json::parse(files[file].dump());
    for (auto it = snippets.begin(); it != snippets.end(); ++it) {
      seen.insert(it.key());
      CHECK(it.value()["body"].is_array());
      ++total;
    }
  }
  CHECK(files.count("cuda.json"));
  CHECK(files.count("toml.json"));
  CHECK(seen.size() == catalog().all().size());  // every snippet, under some filetype
  CHECK(total >= catalog().all().size());        // one filetype per language of its contexts
  CHECK(files.count("python.json"));
}

TEST_CASE("JSON export and `kernel-lsp snippets export` through the binary") {
  json document = json::parse(kl::guidance::export_snippets_json(catalog()).dump());
  REQUIRE(document["snippets"].size() == catalog().all().size());
  for (const auto& entry : document["snippets"]) {
    INFO(entry["id"]);
    REQUIRE(entry["context"].is_array());
    CHECK_FALSE(entry["context"].empty());
    for (const auto& name : entry["context"]) CHECK(guidance::parse_context(name.get<std::string>()));
    if (entry["id"] == "warp-sum") CHECK(entry["context"] == json::array({"cuda-device-code"}));
    if (entry["id"] == "build-toml") CHECK(entry["context"] == json::array({"build-toml-new"}));
  }

  REQUIRE(fs::exists(KL_BINARY));
  const fs::path out = fs::temp_directory_path() / ("kl-snippets-" + std::to_string(::getpid()));
  fs::remove_all(out);
  auto run = [&](std::vector<std::string> args) {
    kl::ProcessRequest request;
    request.program = KL_BINARY;
    request.args = std::move(args);
    request.extra_environment = {{"KERNEL_LSP_RESOURCE_DIR", KL_SOURCE_DIR}};
    auto outcome = kl::run_process(request);
    REQUIRE(outcome);
    return *outcome;
  };
  for (const char* format : {"vscode", "json", "neovim"}) {
    INFO(format);
    auto stdout_run = run({"snippets", "export", "--format", format});
    REQUIRE(stdout_run.exit_code == 0);
    CHECK_NOTHROW(json::parse(stdout_run.stdout_text));
  }
  auto to_file = run(
      {"snippets", "export", "--format", "vscode", "--output", (out / "kernel-lsp.code-snippets").string()});
  REQUIRE(to_file.exit_code == 0);
  json written = json::parse(*kl::read_file_text(out / "kernel-lsp.code-snippets"));
  CHECK(written.size() == catalog().all().size());
  auto to_folder = run({"snippets", "export", "--format", "neovim", "--output", (out / "nvim").string()});
  REQUIRE(to_folder.exit_code == 0);
  CHECK(fs::exists(out / "nvim" / "package.json"));
  CHECK(fs::exists(out / "nvim" / "cuda.json"));
  auto list = run({"snippets", "list"});
  CHECK(list.exit_code == 0);
  CHECK(list.stdout_text.find("kl-rmsnorm") != std::string::npos);
  CHECK(run({"snippets", "export", "--format", "emacs"}).exit_code == 2);
  fs::remove_all(out);
}
