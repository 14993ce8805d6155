// While a build.toml does not parse, its sources are analysed against the last version of it
// that parsed, and their results say so: the cache on its own, then through the server (the
// editor's copy and the file on disk).
#include "lsp/core/last_parsed_build_toml.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "lsp/server/uri.h"
#include "tests/unit/lsp_test_harness.h"

using kl::lsp::json;
using kl::lsp::LastParsedBuildTomls;
namespace fs = std::filesystem;

namespace {

using Client = kl::lsp::testing::LspTestClient;

constexpr const char* kParses = R"([general]
name = "fallback"
version = 1
edition = 5
license = "mit"
backends = ["cuda"]

[torch]
src = []
)";
// Line 2 breaks off in the middle of a key/value pair.
constexpr const char* kBroken = "[general]\nname = \n";

std::shared_ptr<const std::string> text(const char* s) { return std::make_shared<const std::string>(s); }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

void write_file(const fs::path& path, const std::string& content) { std::ofstream(path) << content; }

// The diagnostics of the build-toml rule in a publishDiagnostics' params.
std::vector<json> build_toml_notes(const json& published) {
  std::vector<json> out;
  for (const auto& d : published["diagnostics"])
    if (d.value("code", "") == "build-toml") out.push_back(d);
  return out;
}

// The newest job of `file` that the backend ran.
std::optional<kl::lsp::AnalysisJob> last_job(const Client& client, const std::string& file) {
  std::optional<kl::lsp::AnalysisJob> found;
  for (const auto& job : client.backend->jobs())
    if (job.file.filename() == file) found = job;
  return found;
}

}  // namespace

TEST_CASE("the last build.toml that parsed stands in for one that does not", "[last-parsed]") {
  LastParsedBuildTomls cache;
  const fs::path toml = "/p/build.toml";
  auto good = text(kParses);
  auto choice = cache.choose(toml, good);
  CHECK(choice.text == good);
  CHECK_FALSE(choice.stand_in);
  CHECK_FALSE(cache.note_for(toml, good.get()));

  auto broken = text(kBroken);
  choice = cache.choose(toml, broken);
  CHECK(choice.text == good);
  CHECK(choice.stand_in);
  std::optional<std::string> note = cache.note_for(toml, good.get());
  REQUIRE(note);
  CHECK(starts_with(*note, "build.toml does not parse (line 2: "));
  CHECK(note->find("); using the last version that parsed") != std::string::npos);
  CHECK_FALSE(cache.note_for(toml, broken.get()));

  // Fixed: the current text again, and no note for analyses against the old one.
  auto fixed = text(kParses);
  choice = cache.choose(toml, fixed);
  CHECK(choice.text == fixed);
  CHECK_FALSE(choice.stand_in);
  CHECK_FALSE(cache.note_for(toml, good.get()));
}

TEST_CASE("without a version that parsed, a build.toml that does not parse is used as it is",
          "[last-parsed]") {
  LastParsedBuildTomls cache;
  auto broken = text(kBroken);
  auto choice = cache.choose("/q/build.toml", broken);
  CHECK(choice.text == broken);
  CHECK_FALSE(choice.stand_in);
  CHECK_FALSE(cache.note_for("/q/build.toml", broken.get()));
  // Another project's history is not this one's.
  cache.choose("/r/build.toml", text(kParses));
  CHECK_FALSE(cache.choose("/q/build.toml", broken).stand_in);
}

TEST_CASE("an edit that breaks the open build.toml keeps its sources on the last version that parsed",
          "[last-parsed][server]") {
  Client client;
  write_file(client.root / "build.toml", kParses);
  std::string source_uri = client.open(client.root / "csrc" / "k.cu", "cuda", "int x;\n");
  client.diagnostics_for(source_uri, 1);
  std::string toml_uri = client.open(client.root / "build.toml", "toml", kParses);
  client.diagnostics_for(toml_uri, 1);

  client.notify("textDocument/didChange", {{"textDocument", {{"uri", toml_uri}, {"version", 2}}},
                                           {"contentChanges", {{{"text", kBroken}}}}});
  client.diagnostics_for(toml_uri, 2);
  json published = client.diagnostics_for(source_uri, 1);
  auto job = last_job(client, "k.cu");
  REQUIRE(job);
  REQUIRE(job->project);
  CHECK(*job->project->text == kParses);
  auto notes = build_toml_notes(published);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["severity"] == 3);
  CHECK(starts_with(notes[0]["message"].get<std::string>(), "build.toml does not parse (line 2: "));
  json status = client.request("kernel-lsp/fileStatus", {{"textDocument", {{"uri", source_uri}}}})["result"];
  CHECK(starts_with(status["capabilitiesFrom"].get<std::string>(), "build.toml does not parse (line 2: "));
  CHECK(status["capabilitiesFrom"].get<std::string>().find("using the last version that parsed") !=
        std::string::npos);

  // Fixed again: the current copy, and the note is gone.
  const std::string fixed = std::string(kParses) + "\n";
  client.notify("textDocument/didChange", {{"textDocument", {{"uri", toml_uri}, {"version", 3}}},
                                           {"contentChanges", {{{"text", fixed}}}}});
  client.diagnostics_for(toml_uri, 3);
  published = client.diagnostics_for(source_uri, 1);
  CHECK(build_toml_notes(published).empty());
  job = last_job(client, "k.cu");
  REQUIRE(job->project);
  CHECK(*job->project->text == fixed);
}

TEST_CASE("a build.toml saved broken on disk keeps its sources on the last version that parsed",
          "[last-parsed][server]") {
  Client client;
  write_file(client.root / "build.toml", kParses);
  std::string source_uri = client.open(client.root / "csrc" / "k.cu", "cuda", "int x;\n");
  json published = client.diagnostics_for(source_uri, 1);
  CHECK(build_toml_notes(published).empty());
  auto job = last_job(client, "k.cu");
  REQUIRE(job);
  CHECK_FALSE(job->project);  // the analyzers read the disk copy themselves

  write_file(client.root / "build.toml", kBroken);
  client.notify("workspace/didChangeWatchedFiles",
                {{"changes", {{{"uri", kl::lsp::path_to_uri(client.root / "build.toml")}, {"type", 2}}}}});
  published = client.diagnostics_for(source_uri, 1);
  job = last_job(client, "k.cu");
  REQUIRE(job->project);
  CHECK(*job->project->text == kParses);
  auto notes = build_toml_notes(published);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["message"].get<std::string>().find("using the last version that parsed") !=
        std::string::npos);
}
