// build.toml files as upstream's parser judges them (tests/fixtures/build_toml/upstream/): what
// kernels-data accepts gets no build-toml error, and what it rejects gets the errors each file's
// `# expect:` lines name. A new fixture is a new case; nothing here lists them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzers/project/build_config.h"

namespace {

using namespace kl::analyzers;
namespace fs = std::filesystem;

const fs::path kUpstream = fs::path(KL_FIXTURES_DIR) / "build_toml" / "upstream";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<fs::path> fixtures(const std::string& folder) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(kUpstream / folder))
    if (entry.path().extension() == ".toml") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The texts of the file's `# expect: <text>` lines.
std::vector<std::string> expectations(const std::string& text) {
  constexpr std::string_view kMarker = "# expect: ";
  std::vector<std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(kMarker, 0) == 0) out.push_back(line.substr(kMarker.size()));
  return out;
}

std::string describe(const std::vector<Finding>& problems) {
  std::string out;
  for (const Finding& f : problems)
    out += std::to_string(f.location.range.start.line + 1) + ": " + severity_name(f.severity) + ": " +
           f.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("files upstream accepts get no build-toml error") {
  const std::vector<fs::path> files = fixtures("accepts");
  REQUIRE(files.size() >= 5);
  for (const fs::path& file : files) {
    const std::string text = read_text(file);
    BuildConfigParse parsed = parse_build_toml(file, text);
    INFO(file.filename().string() << ":\n" << describe(parsed.problems));
    CHECK(parsed.config);
    CHECK(expectations(text).empty());  // expectations belong to rejected files
    for (const Finding& f : parsed.problems) CHECK(f.severity != Severity::Error);
  }
}

TEST_CASE("files upstream rejects get the errors they expect") {
  const std::vector<fs::path> files = fixtures("rejects");
  REQUIRE(files.size() >= 5);
  for (const fs::path& file : files) {
    const std::string text = read_text(file);
    BuildConfigParse parsed = parse_build_toml(file, text);
    INFO(file.filename().string() << ":\n" << describe(parsed.problems));
    const std::vector<std::string> expected = expectations(text);
    CHECK_FALSE(expected.empty());
    for (const std::string& needle : expected) {
      INFO("expect: " << needle);
      CHECK(std::any_of(parsed.problems.begin(), parsed.problems.end(), [&](const Finding& f) {
        return f.severity == Severity::Error && f.message.find(needle) != std::string::npos;
      }));
    }
  }
}

TEST_CASE("a v4 file upstream accepts is still accepted once `edition = 5` is added") {
  for (const fs::path& file : fixtures("accepts")) {
    std::string text = read_text(file);
    const size_t general = text.find("[general]\n");
    REQUIRE(general != std::string::npos);
    if (text.find("\nedition = ") != std::string::npos) continue;  // edition 5 already
    text.insert(general + 10, "edition = 5\n");
    BuildConfigParse parsed = parse_build_toml(file, text);
    INFO(file.filename().string() << " with edition 5:\n" << describe(parsed.problems));
    for (const Finding& f : parsed.problems) CHECK(f.severity != Severity::Error);
  }
}
