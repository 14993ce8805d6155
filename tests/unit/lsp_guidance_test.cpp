// Skills and snippets through the LSP layer, in-process over a scripted analysis backend:
// hovers carry the skill's section for every construct (after the facts when there are some),
// build.toml keys get guidance, completion offers snippets (snippet syntax only for clients
// that support it), kernel-lsp/guidance and the kernel-lsp.guidance command answer, and a
// broken SKILL.md gets diagnostics as it is edited.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/unit/lsp_test_harness.h"

using namespace std::chrono_literals;
using kl::lsp::json;
namespace fs = std::filesystem;

namespace {

// The guidance must come from the bundled skill, not from whatever the machine's user installed.
void isolate_environment() {
  static const fs::path home = [] {
    fs::path h = fs::temp_directory_path() / ("kl-lsp-guidance-home-" + std::to_string(::getpid()));
    fs::create_directories(h);
    return h;
  }();
  ::setenv("HOME", home.c_str(), 1);
  ::setenv("KERNEL_LSP_RESOURCE_DIR", KL_SOURCE_DIR, 1);
}

// The environment is isolated before the server exists: a base constructed before the client.
struct BundledSkillOnly {
  BundledSkillOnly() { isolate_environment(); }
};

struct Client : BundledSkillOnly, kl::lsp::testing::LspTestClient {
  explicit Client(json capabilities = json::object())
      : LspTestClient(std::move(capabilities), json{{"debounceMs", 0}}, "kl-lsp-guidance") {}
};

// Line and column of the first occurrence of `needle` in `text`, plus `into`.
std::pair<int, int> where(const std::string& text, const std::string& needle, int into = 1) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  int line = 0;
  size_t line_start = 0;
  for (size_t i = 0; i < at; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return {line, static_cast<int>(at - line_start) + into};
}

const std::string kKernel = R"cu(#include <cuda_bf16.h>
#include <cstdint>
__global__ void __launch_bounds__(256) demo(float* out, const float* in, int n) {
  __shared__ float partial[8];
  const float4 v = reinterpret_cast<const float4*>(in)[threadIdx.x];
  float s = v.x + v.y;
  s += __shfl_xor_sync(0xffffffffu, s, 16);
  s += __shfl_down_sync(0xffffffffu, s, 8);
  unsigned c = __reduce_add_sync(0xffffffffu, 1u);
  __nv_bfloat162 p = __hmul2(__nv_bfloat162(), __nv_bfloat162());
  __half2 h;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(0), "l"(in));
  __pipeline_memcpy_async(partial, in, 16);
  __syncthreads();
  out[threadIdx.x] = s + c;
}
TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {
  ops.def("demo(Tensor! out, Tensor input) -> ()");
  ops.impl("demo", torch::kCUDA, &demo);
}
)cu";

}  // namespace

TEST_CASE("initialize advertises completion and the guidance command", "[guidance]") {
  Client client;
  const json& caps = client.initialize_result["capabilities"];
  CHECK(caps.contains("completionProvider"));
  CHECK(caps["executeCommandProvider"]["commands"] ==
        json::array({"kernel-lsp.guidance", "kernel-lsp.build", "kernel-lsp.bench", "kernel-lsp.cancel",
                     "kernel-lsp.showUsage", "kernel-lsp.test"}));
}

TEST_CASE("hover shows the skill's section for every construct", "[guidance]") {
  Client client;
  std::string uri = client.open(client.root / "demo.cu", "cuda-cpp", kKernel);
  struct Case {
    std::string needle;
    std::string title;
  };
  const std::vector<Case> cases = {
      {"__shfl_xor_sync", "Warp shuffles"},
      {"__shfl_down_sync", "Warp shuffles"},
      {"__reduce_add_sync", "Warp reductions"},
      {"reinterpret_cast", "Vector types and reinterpret_cast"},
      {"float4", "Vector types and reinterpret_cast"},
      {"__nv_bfloat162 p", "Vector types and reinterpret_cast"},
      {"__half2", "Vector types and reinterpret_cast"},
      {"__hmul2", "Vectorised half2 / bfloat162 math"},
      {"__launch_bounds__", "__launch_bounds__"},
      {"__shared__", "Shared memory (__shared__)"},
      {"cp.async", "cp.async"},
      {"__pipeline_memcpy_async", "cp.async"},
      {"__syncthreads", "__syncthreads"},
      {"TORCH_LIBRARY_EXPAND", "TORCH_LIBRARY_EXPAND"},
      {"ops.def", "Schema types"},
      {"ops.impl", "TORCH_LIBRARY_EXPAND"},
  };
  for (const auto& c : cases) {
    INFO(c.needle);
    auto [line, character] = where(kKernel, c.needle, 2);
    json hover = client.hover(uri, line, character);
    REQUIRE(hover.is_object());
    const std::string markdown = hover["contents"]["value"];
    CHECK(hover["contents"]["kind"] == "markdown");
    CHECK(markdown.find("**" + c.title) != std::string::npos);
    CHECK(markdown.find("skill") != std::string::npos);
    CHECK(markdown.find("](file://") != std::string::npos);  // a link to the page
    // Trimmed for a hover: the section plus a few lines of title and link.
    CHECK(std::count(markdown.begin(), markdown.end(), '\n') <= 60);
  }
  // Nothing to say about a plain identifier.
  auto [line, character] = where(kKernel, "out[threadIdx.x]", 6);
  CHECK(client.hover(uri, line, character).is_null());
}

TEST_CASE("hover on build.toml keys shows the build.toml guidance", "[guidance]") {
  Client client;
  const std::string toml =
      "[general]\nname = \"demo\"\nedition = 5\n\n[kernel.demo]\nbackend = \"cuda\"\ndepends = [\"torch\"]\n"
      "cuda-capabilities = [\"8.0\"]\n";
  std::string uri = client.open(client.root / "build.toml", "toml", toml);
  for (const auto& [needle, title] :
       std::vector<std::pair<std::string, std::string>>{{"cuda-capabilities", "cuda-capabilities"},
                                                        {"depends", "A complete edition-5 file"},
                                                        {"backend", "A complete edition-5 file"},
                                                        {"edition", "A complete edition-5 file"}}) {
    INFO(needle);
    auto [line, character] = where(toml, needle, 2);
    json hover = client.hover(uri, line, character);
    REQUIRE(hover.is_object());
    CHECK(std::string(hover["contents"]["value"]).find("**" + title) != std::string::npos);
  }
  auto [line, character] = where(toml, "\"torch\"", 2);  // a value, not a key
  CHECK(client.hover(uri, line, character).is_null());
}

TEST_CASE("completion offers snippets; snippet syntax only for clients that support it", "[guidance]") {
  const std::string text = "#include <cuda_runtime.h>\nkl-rms\nx.kl\n";
  auto complete = [&](Client& client, const std::string& uri, int line, int character) {
    return client.request("textDocument/completion",
                          {{"textDocument", {{"uri", uri}}},
                           {"position", {{"line", line}, {"character", character}}}})["result"];
  };
  SECTION("with snippetSupport") {
    Client client(json{{"textDocument", {{"completion", {{"completionItem", {{"snippetSupport", true}}}}}}}});
    std::string uri = client.open(client.root / "k.cu", "cuda", text);
    json result = complete(client, uri, 1, 6);
    REQUIRE(result["items"].is_array());
    json rmsnorm;
    for (const auto& item : result["items"])
      if (item["label"] == "kl-rmsnorm") rmsnorm = item;
    REQUIRE(rmsnorm.is_object());
    CHECK(rmsnorm["kind"] == 15);
    CHECK(rmsnorm["insertTextFormat"] == 2);
    CHECK(std::string(rmsnorm["textEdit"]["newText"]).find("${1:rms_norm}") != std::string::npos);
    // The typed prefix, '-' included, is replaced.
    CHECK(rmsnorm["textEdit"]["range"]["start"]["character"] == 0);
    CHECK(rmsnorm["textEdit"]["range"]["end"]["character"] == 6);
    CHECK(rmsnorm["documentation"]["kind"] == "markdown");
    CHECK(std::string(rmsnorm["documentation"]["value"]).find("**Warp shuffles") != std::string::npos);
    for (const auto& item : result["items"]) CHECK(item["label"] != "kl-build-toml");  // not in a .cu file
    // After a member access: nothing.
    CHECK(complete(client, uri, 2, 4)["items"].empty());
  }
  SECTION("without snippetSupport") {
    Client client;
    std::string uri = client.open(client.root / "k.cu", "cuda", text);
    json result = complete(client, uri, 1, 6);
    REQUIRE_FALSE(result["items"].empty());
    for (const auto& item : result["items"]) {
      CHECK(item["insertTextFormat"] == 1);
      CHECK(std::string(item["textEdit"]["newText"]).find("${") == std::string::npos);
    }
  }
  SECTION("in build.toml, the build.toml snippet") {
    Client client(json{{"textDocument", {{"completion", {{"completionItem", {{"snippetSupport", true}}}}}}}});
    std::string uri = client.open(client.root / "build.toml", "toml", "kl\n");
    json result = complete(client, uri, 0, 2);
    REQUIRE(result["items"].size() == 1);
    CHECK(result["items"][0]["label"] == "kl-build-toml");
  }
}

TEST_CASE("kernel-lsp/guidance and the kernel-lsp.guidance command", "[guidance]") {
  Client client;
  json by_rule = client.request("kernel-lsp/guidance", {{"ruleId", "misaligned-access"}})["result"];
  REQUIRE(by_rule.is_object());
  CHECK(by_rule["title"] == "misaligned-access");
  CHECK(by_rule["line"] == 0);
  CHECK(std::string(by_rule["file"]).find("references/rules/misaligned-access.md") != std::string::npos);
  CHECK(std::string(by_rule["uri"]).rfind("file://", 0) == 0);
  CHECK(by_rule["skill"] == "cuda-kernels");

  json by_construct = client.request("kernel-lsp/guidance", {{"construct", "cp.async"}})["result"];
  REQUIRE(by_construct.is_object());
  CHECK(by_construct["title"] == "cp.async");

  json by_topic =
      client.request("kernel-lsp/guidance", {{"topic", "bank conflicts in shared memory"}})["result"];
  REQUIRE(by_topic.is_object());

  std::string uri = client.open(client.root / "demo.cu", "cuda", kKernel);
  auto [line, character] = where(kKernel, "__syncthreads", 3);
  json by_position =
      client.request("kernel-lsp/guidance",
                     {{"uri", uri}, {"position", {{"line", line}, {"character", character}}}})["result"];
  REQUIRE(by_position.is_object());
  CHECK(by_position["title"] == "__syncthreads");

  CHECK(client.request("kernel-lsp/guidance", {{"ruleId", "no-such-rule"}})["result"].is_null());
  CHECK(client.request("kernel-lsp/guidance", {{"ruleId", 5}}).contains("error"));  // InvalidParams

  json command = client.request("workspace/executeCommand", {{"command", "kernel-lsp.guidance"},
                                                             {"arguments", {{{"construct", "__shared__"}}}}});
  REQUIRE(command["result"].is_object());
  CHECK(command["result"]["title"] == "Shared memory (__shared__)");
  json unknown = client.request("workspace/executeCommand", {{"command", "nope"}});
  REQUIRE(unknown.contains("error"));
  CHECK(unknown["error"]["code"] == -32602);
  CHECK(unknown["error"]["message"] == "unknown command `nope`");
}

TEST_CASE("every command initialize announces reaches its handler", "[guidance]") {
  Client client;
  // Arguments that name no project: each handler answers (a result or its own complaint about
  // the arguments) and starts nothing; none is turned away as unknown.
  for (const json& command : client.initialize_result["capabilities"]["executeCommandProvider"]["commands"]) {
    json answer = client.request("workspace/executeCommand", {{"command", command}, {"arguments", json::array()}});
    INFO(command.dump() << " -> " << answer.dump());
    CHECK((answer.contains("result") || answer.contains("error")));
    if (answer.contains("error"))
      CHECK(answer["error"]["message"].get<std::string>().find("unknown command") == std::string::npos);
  }
}

TEST_CASE("a SKILL.md being edited gets diagnostics", "[guidance]") {
  Client client;
  const fs::path folder = client.root / ".claude" / "skills" / "my-skill";
  fs::create_directories(folder);
  const std::string broken =
      "---\nname: other-name\ndescription: Demo.\n---\n\nSee [x](references/missing.md).\n";
  std::string uri = client.open(folder / "SKILL.md", "markdown", broken);
  json published = client.diagnostics_for(uri, 1);
  REQUIRE(published["diagnostics"].size() == 2);
  CHECK(published["diagnostics"][0]["code"] == "skill");
  CHECK(published["diagnostics"][0]["range"]["start"] == json({{"line", 1}, {"character", 6}}));
  CHECK(published["diagnostics"][1]["range"]["start"] == json({{"line", 5}, {"character", 8}}));

  client.notify(
      "textDocument/didChange",
      {{"textDocument", {{"uri", uri}, {"version", 2}}},
       {"contentChanges", {{{"text", "---\nname: my-skill\ndescription: Demo.\n---\n\n# Fixed\n"}}}}});
  CHECK(client.diagnostics_for(uri, 2)["diagnostics"].empty());
}

TEST_CASE("a SKILL.md is checked by the scheduler like any document, never by the backend", "[guidance]") {
  kl::lsp::testing::LspTestClient client(json::object(), {{"debounceMs", 0}, {"pullDiagnostics", true}},
                                         "kl-lsp-guidance");
  const fs::path folder = client.root / "my-skill";
  fs::create_directories(folder);
  std::string uri =
      client.open(folder / "SKILL.md", "markdown", "---\nname: other-name\ndescription: Demo.\n---\n");
  json published = client.diagnostics_for(uri, 1)["diagnostics"];
  REQUIRE_FALSE(published.empty());
  CHECK(published[0]["code"] == "skill");
  json pulled = client.request("textDocument/diagnostic", {{"textDocument", {{"uri", uri}}}});
  CHECK(pulled["result"]["kind"] == "full");
  CHECK(pulled["result"]["items"] == published);
  CHECK(client.backend->job_count() == 0);  // no analysis of it, nor of anything else
}
