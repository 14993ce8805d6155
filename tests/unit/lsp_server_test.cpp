// The LSP layer in-process, over a scripted analysis backend: documents in, diagnostics out,
// in the negotiated encoding; features; build.toml dependents; stale reads.
#include "lsp/server/lsp_server.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "lsp/server/uri.h"
#include "tests/unit/lsp_test_harness.h"

using namespace std::chrono_literals;
using kl::lsp::json;
namespace fs = std::filesystem;

namespace {

using Client = kl::lsp::testing::LspTestClient;

json range(int l1, int c1, int l2, int c2) {
  return {{"start", {{"line", l1}, {"character", c1}}}, {"end", {{"line", l2}, {"character", c2}}}};
}

void write_file(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("initialize advertises what the server does", "[server]") {
  Client client(json{{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}});
  const json& caps = client.initialize_result["capabilities"];
  CHECK(caps["positionEncoding"] == "utf-8");
  CHECK(caps["textDocumentSync"]["change"] == 2);
  CHECK(caps["hoverProvider"] == true);
  CHECK(caps["documentSymbolProvider"] == true);
  CHECK_FALSE(caps.contains("diagnosticProvider"));  // opt-in
  CHECK(client.initialize_result["serverInfo"]["name"] == "kernel-lsp");
}

TEST_CASE("open, edit the bug away, diagnostics follow in UTF-16", "[server]") {
  Client client;  // no utf-8 offered → utf-16
  std::string uri = client.open(client.root / "k.cu", "cuda-cpp", "// é😀 BUG here\nint x;\n");
  json published = client.diagnostics_for(uri, 1);
  REQUIRE(published["diagnostics"].size() == 1);
  const json& d = published["diagnostics"][0];
  CHECK(d["code"] == "fake-rule");
  CHECK(d["source"] == "kernel-lsp");
  CHECK(d["severity"] == 2);
  CHECK_FALSE(d.contains("codeDescription"));  // fake-rule has no guidance page: no link
  // "// é😀 " is 10 bytes but 7 UTF-16 units.
  CHECK(d["range"] == range(0, 7, 0, 10));

  // Delete "BUG" with an incremental edit expressed in UTF-16.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", uri}, {"version", 2}}},
                 {"contentChanges", {{{"range", range(0, 7, 0, 10)}, {"text", "ok!"}}}}});
  json cleared = client.diagnostics_for(uri, 2);
  CHECK(cleared["diagnostics"].empty());
  auto jobs = client.backend->jobs();
  REQUIRE(!jobs.empty());
  CHECK(*jobs.back().text == "// é😀 ok! here\nint x;\n");

  client.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  json closed = client.diagnostics_for(uri);
  CHECK(closed["diagnostics"].empty());
  CHECK_FALSE(closed.contains("version"));
}

TEST_CASE("an edit that cannot be applied is reported and nothing is published from a stale text",
          "[server]") {
  Client client;
  std::string uri = client.open(client.root / "k.cu", "cuda", "BUG\nint x;\n");
  REQUIRE(client.diagnostics_for(uri, 1)["diagnostics"].size() == 1);
  size_t jobs = client.backend->job_count();
  auto is_message = [](const json& m) { return m.value("method", "") == "window/showMessage"; };

  // A range that ends before it starts: the user is told, the published findings are cleared.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", uri}, {"version", 2}}},
                 {"contentChanges", {{{"range", range(1, 3, 1, 1)}, {"text", ""}}}}});
  auto shown = client.sink.take(is_message);
  REQUIRE(shown);
  CHECK((*shown)["params"]["type"] == 2);
  CHECK_THAT((*shown)["params"]["message"].get<std::string>(),
             Catch::Contains("k.cu") && Catch::Contains("before it starts") && Catch::Contains("version 1"));
  CHECK(client.diagnostics_for(uri, 2)["diagnostics"].empty());

  // Later ranged edits refer to a text the server does not have: not applied, not analysed, and
  // reads answer as for a document that is not open. No second message.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", uri}, {"version", 3}}},
                 {"contentChanges", {{{"range", range(0, 0, 0, 0)}, {"text", "x"}}}}});
  CHECK(client.request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}})["result"].empty());
  CHECK(client.backend->job_count() == jobs);
  CHECK_FALSE(client.sink.take(is_message, 100ms));

  // The whole text brings the document back.
  client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 4}}},
                                           {"contentChanges", {{{"text", "BUG\n"}}}}});
  CHECK(client.diagnostics_for(uri, 4)["diagnostics"].size() == 1);
}

TEST_CASE("documents that are not kernel sources are not analysed", "[server]") {
  Client client;
  client.open(client.root / "notes.md", "markdown", "BUG");
  client.open(client.root / "plain.cpp", "cpp", "BUG");  // no build.toml above it
  std::string uri = client.open(client.root / "k.cuh", "cpp", "BUG");
  client.diagnostics_for(uri, 1);
  CHECK(client.backend->job_count() == 1);
}

TEST_CASE("code actions offer the suppression comment", "[server]") {
  Client client(json{{"textDocument", {{"codeAction", {{"codeActionLiteralSupport", json::object()}}}}}});
  std::string uri = client.open(client.root / "k.cu", "cuda", "void f() {\n    BUG();\n}\n");
  json published = client.diagnostics_for(uri, 1);
  json reply =
      client.request("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                                 {"range", published["diagnostics"][0]["range"]},
                                                 {"context", {{"diagnostics", published["diagnostics"]}}}});
  REQUIRE(reply["result"].size() == 1);
  CHECK(reply["result"][0]["title"] == "Suppress fake-rule on this line");
  CHECK(reply["result"][0]["edit"]["changes"][uri][0]["newText"] == "    // kernel-lsp: ignore[fake-rule]\n");
}

TEST_CASE("document symbols and hover answer from the analysis", "[server]") {
  Client client(json{{"textDocument", {{"documentSymbol", {{"hierarchicalDocumentSymbolSupport", true}}}}}});
  std::string text = "__global__ void k(float* x) {\n  x[0] = 1;\n}\n";
  std::string uri = client.open(client.root / "k.cu", "cuda", text);
  json symbols = client.request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}});
  REQUIRE(symbols["result"].size() == 1);
  CHECK(symbols["result"][0]["name"] == "k");
  CHECK(symbols["result"][0]["kind"] == 12);
  json hover = client.request("textDocument/hover", {{"textDocument", {{"uri", uri}}},
                                                     {"position", {{"line", 1}, {"character", 3}}}});
  CHECK(hover["result"].is_null());  // the fake backend reports no kernels or features
}

TEST_CASE("pull diagnostics: full, then unchanged, and ContentModified when edited", "[server]") {
  Client client(json::object(), {{"debounceMs", 10000}, {"pullDiagnostics", true}});
  CHECK(client.initialize_result["capabilities"]["diagnosticProvider"]["identifier"] == "kernel-lsp");
  std::string uri = client.open(client.root / "k.cu", "cuda", "BUG\n");
  json full = client.request("textDocument/diagnostic", {{"textDocument", {{"uri", uri}}}});
  CHECK(full["result"]["kind"] == "full");
  CHECK(full["result"]["items"].size() == 1);
  std::string result_id = full["result"]["resultId"];
  json same = client.request("textDocument/diagnostic",
                             {{"textDocument", {{"uri", uri}}}, {"previousResultId", result_id}});
  CHECK(same["result"]["kind"] == "unchanged");

  // An edit waits 10 s to be analysed; the pull for it is made stale by a second edit.
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", uri}, {"version", 2}}}, {"contentChanges", {{{"text", "x\n"}}}}});
  int pending = client.send_request("textDocument/diagnostic", {{"textDocument", {{"uri", uri}}}});
  CHECK_FALSE(client.reply_to(pending, 100ms));
  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", uri}, {"version", 3}}}, {"contentChanges", {{{"text", "y\n"}}}}});
  auto stale = client.reply_to(pending);
  REQUIRE(stale);
  CHECK((*stale)["error"]["code"] == -32801);

  // And a waiting one can be cancelled by the client.
  int cancelled = client.send_request("textDocument/diagnostic", {{"textDocument", {{"uri", uri}}}});
  client.notify("$/cancelRequest", {{"id", cancelled}});
  auto answer = client.reply_to(cancelled);
  REQUIRE(answer);
  CHECK((*answer)["error"]["code"] == -32800);
}

TEST_CASE("editing an open build.toml re-lints the files that depend on it", "[server]") {
  Client client;
  write_file(client.root / "build.toml", "[general]\nname = \"x\"\n");
  std::string source_uri = client.open(client.root / "csrc" / "k.cu", "cuda", "int x;\n");
  client.diagnostics_for(source_uri, 1);
  std::string toml_uri = client.open(client.root / "build.toml", "toml", "[general]\nname = \"x\"\n");
  client.diagnostics_for(toml_uri, 1);
  size_t before = client.backend->job_count();

  client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", toml_uri}, {"version", 2}}},
                 {"contentChanges", {{{"text", "[kernel.k]\nbakend = \"cuda\"\n"}}}}});
  json toml_diagnostics = client.diagnostics_for(toml_uri, 2);
  REQUIRE(toml_diagnostics["diagnostics"].size() == 1);
  CHECK(toml_diagnostics["diagnostics"][0]["code"] == "build-toml");
  client.diagnostics_for(source_uri, 1);  // re-published after the re-lint
  auto jobs = client.backend->jobs();
  REQUIRE(jobs.size() >= before + 2);
  bool source_relinted_with_unsaved_toml = false;
  for (const auto& job : jobs)
    if (job.file.filename() == "k.cu" && job.project &&
        *job.project->text == "[kernel.k]\nbakend = \"cuda\"\n")
      source_relinted_with_unsaved_toml = true;
  CHECK(source_relinted_with_unsaved_toml);
}

TEST_CASE("a build.toml saved on disk re-lints its dependents", "[server]") {
  Client client;
  write_file(client.root / "build.toml", "[general]\n");
  std::string source_uri = client.open(client.root / "csrc" / "k.cu", "cuda", "int x;\n");
  client.diagnostics_for(source_uri, 1);
  size_t before = client.backend->job_count();
  client.notify("workspace/didChangeWatchedFiles",
                {{"changes", {{{"uri", kl::lsp::path_to_uri(client.root / "build.toml")}, {"type", 2}}}}});
  client.diagnostics_for(source_uri, 1);
  CHECK(client.backend->job_count() == before + 1);
}

TEST_CASE("a settings change rebuilds the analyzer and re-lints", "[server]") {
  Client client;
  std::string uri = client.open(client.root / "k.cu", "cuda", "int x;\n");
  client.diagnostics_for(uri, 1);
  client.notify("workspace/didChangeConfiguration",
                {{"settings", {{"kernelLsp", {{"extraFlags", {"-DFOO"}}}}}}});
  client.diagnostics_for(uri, 1);
  CHECK(client.backend->reconfigured == 1);
  client.notify("workspace/didChangeConfiguration", {{"settings", {{"kernelLsp", {{"extraFlags", 3}}}}}});
  auto warning =
      client.sink.take([](const json& m) { return m.value("method", "") == "window/showMessage"; });
  REQUIRE(warning);
  CHECK_THAT((*warning)["params"]["message"].get<std::string>(), Catch::Contains("extraFlags"));
}

TEST_CASE("workspace/configuration is asked for and applied", "[server]") {
  Client client(json{{"workspace", {{"configuration", true}}}});
  auto ask =
      client.sink.take([](const json& m) { return m.value("method", "") == "workspace/configuration"; });
  REQUIRE(ask);
  CHECK((*ask)["params"]["items"][0]["section"] == "kernelLsp");
  client.dispatcher.receive(
      json{{"jsonrpc", "2.0"}, {"id", (*ask)["id"]}, {"result", {{{"defaultArchs", {"8.0"}}}}}}.dump());
  CHECK(client.backend->reconfigured == 1);
}

TEST_CASE("progress is reported for the first analysis when the client supports it", "[server]") {
  Client client(json{{"window", {{"workDoneProgress", true}}}});
  client.backend->delay_ms = 200;
  std::string uri = client.open(client.root / "k.cu", "cuda", "int x;\n");
  auto create = client.sink.take(
      [](const json& m) { return m.value("method", "") == "window/workDoneProgress/create"; });
  REQUIRE(create);
  json token = (*create)["params"]["token"];
  client.dispatcher.receive(json{{"jsonrpc", "2.0"}, {"id", (*create)["id"]}, {"result", nullptr}}.dump());
  auto begin = client.sink.take([&](const json& m) {
    return m.value("method", "") == "$/progress" && m["params"]["value"]["kind"] == "begin";
  });
  REQUIRE(begin);
  CHECK((*begin)["params"]["token"] == token);
  auto end = client.sink.take([&](const json& m) {
    return m.value("method", "") == "$/progress" && m["params"]["value"]["kind"] == "end";
  });
  REQUIRE(end);
  client.diagnostics_for(uri, 1);
}
