// Skill validation (guidance/skill_validation.h, skill_front_matter.h): the bundled
// cuda-kernels skill passes; each broken fixture in tests/fixtures/skills/ fails with its one
// problem at an exact line and column (1-based below, as `kernel-lsp skills validate` prints).
#include "guidance/skill_validation.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "guidance/skill_front_matter.h"
#include "guidance/skill_markdown.h"
#include "support/fs_paths.h"

namespace guidance = kl::guidance;

namespace fs = std::filesystem;
using kl::analyzers::Finding;
using kl::analyzers::Severity;

namespace {

const fs::path kFixtures = fs::path(KL_FIXTURES_DIR) / "skills";

std::vector<Finding> validate(const std::string& name) {
  return kl::guidance::validate_skill_folder(kFixtures / name);
}

std::vector<Finding> with_severity(const std::vector<Finding>& findings, Severity severity) {
  std::vector<Finding> out;
  for (const auto& f : findings)
    if (f.severity == severity) out.push_back(f);
  return out;
}

std::string describe(const std::vector<Finding>& findings) {
  std::string text;
  for (const auto& f : findings)
    text += fs::path(f.location.file).filename().string() + ":" +
            std::to_string(f.location.range.start.line + 1) + ":" +
            std::to_string(f.location.range.start.column + 1) + ": " +
            kl::analyzers::severity_name(f.severity) + ": " + f.message + "\n";
  return text;
}

// 1-based, as printed.
void require_at(const Finding& finding, uint32_t line, uint32_t column) {
  INFO(finding.message);
  CHECK(finding.location.range.start.line + 1 == line);
  CHECK(finding.location.range.start.column + 1 == column);
}

}  // namespace

TEST_CASE("the bundled cuda-kernels skill is valid") {
  const fs::path skill = fs::path(KL_SOURCE_DIR) / "skills" / "cuda-kernels";
  REQUIRE(fs::exists(skill / "SKILL.md"));
  auto findings = kl::guidance::validate_skill_folder(skill);
  INFO(describe(findings));
  CHECK(with_severity(findings, Severity::Error).empty());
  CHECK(with_severity(findings, Severity::Warning).empty());
}

TEST_CASE("a valid fixture has no findings, and its front matter is read") {
  auto findings = validate("valid-skill");
  INFO(describe(findings));
  CHECK(findings.empty());

  auto text = kl::read_file_text(kFixtures / "valid-skill" / "SKILL.md");
  REQUIRE(text);
  auto reading = kl::guidance::read_skill_front_matter(*text, "SKILL.md", "valid-skill");
  REQUIRE(reading.front_matter);
  CHECK(reading.front_matter->name == "valid-skill");
  CHECK(reading.front_matter->license == "Apache-2.0");
  CHECK(reading.front_matter->metadata.at("version") == "1.0");
  CHECK(reading.front_matter->allowed_tools == std::vector<std::string>{"Bash", "Read"});
  CHECK(reading.front_matter->user_invocable == true);
  CHECK(reading.front_matter->argument_hint == "[topic]");
  CHECK(reading.body_line == 12);
}

TEST_CASE("missing name: one error on the opening line") {
  auto findings = validate("missing-name");
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity == Severity::Error);
  CHECK(findings[0].rule_id == "skill");
  CHECK(findings[0].message.find("no `name`") != std::string::npos);
  require_at(findings[0], 1, 1);
}

TEST_CASE("name differing from the folder: error at the value") {
  auto findings = validate("name-mismatch");
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].message.find("folder is `name-mismatch`") != std::string::npos);
  require_at(findings[0], 2, 7);
}

TEST_CASE("bad characters in the name: error at the first bad character") {
  auto findings = validate("bad-chars");
  INFO(describe(findings));
  REQUIRE(findings.size() == 2);  // the name no longer equals the folder, and the character
  CHECK(findings[0].message.find("folder") != std::string::npos);
  require_at(findings[0], 2, 7);
  CHECK(findings[1].message.find("found '_'") != std::string::npos);
  require_at(findings[1], 2, 10);
}

TEST_CASE("description over 1024 characters: error at the value") {
  auto findings = validate("long-description");
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].message.find("1100 characters") != std::string::npos);
  require_at(findings[0], 3, 14);
}

TEST_CASE("a link to a reference that does not exist: error at the link target") {
  auto findings = validate("broken-link");
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity == Severity::Error);
  CHECK(findings[0].message.find("references/missing.md") != std::string::npos);
  require_at(findings[0], 9, 25);
}

TEST_CASE("front matter that is not YAML: error on its line") {
  auto findings = validate("bad-yaml");
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].message.find("not valid YAML") != std::string::npos);
  // yaml-cpp notices the unclosed '[' where the next key starts.
  CHECK(findings[0].location.range.start.line + 1 == 4);
}

TEST_CASE("an unknown key is a warning with a suggestion; the missing description an error") {
  auto findings = validate("unknown-key");
  INFO(describe(findings));
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].severity == Severity::Error);
  CHECK(findings[0].message.find("no `description`") != std::string::npos);
  require_at(findings[0], 1, 1);
  CHECK(findings[1].severity == Severity::Warning);
  CHECK(findings[1].message.find("did you mean `description`") != std::string::npos);
  require_at(findings[1], 3, 1);
}

TEST_CASE("a body over 500 lines is a warning at the first line past the limit") {
  auto findings = validate("long-body");
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity == Severity::Warning);
  CHECK(findings[0].message.find("510 lines") != std::string::npos);
  require_at(findings[0], 505, 1);
  CHECK_FALSE(kl::guidance::has_errors(findings));
}

TEST_CASE("front matter rules, one at a time") {
  auto check = [](const std::string& yaml, const std::string& folder = "demo") {
    return kl::guidance::read_skill_front_matter("---\n" + yaml + "---\n# Body\n", "SKILL.md", folder).problems;
  };
  const std::string description = "description: Does a thing. Use it when needed.\n";
  CHECK(check("name: demo\n" + description).empty());
  CHECK(check("name: -demo\n" + description, "-demo").size() == 1);    // leading '-'
  CHECK(check("name: demo-\n" + description, "demo-").size() == 1);    // trailing '-'
  CHECK(check("name: de--mo\n" + description, "de--mo").size() == 1);  // double '-'
  CHECK(check("name: " + std::string(65, 'a') + "\n" + description, std::string(65, 'a')).size() == 1);
  CHECK(check("name: demo\ndescription: \"\"\n").size() == 1);  // empty description
  CHECK(check("name: demo\n" + description + "compatibility: " + std::string(501, 'x') + "\n").size() == 1);
  CHECK(check("name: demo\n" + description + "metadata:\n  a: [1, 2]\n").size() == 1);  // not string → string
  CHECK(check("name: demo\n" + description + "metadata: text\n").size() == 1);
  CHECK(check("name: demo\n" + description + "user-invocable: maybe\n").size() == 1);
  CHECK(check("name: demo\n" + description + "disable-model-invocation: true\n").empty());
  CHECK(check("name: demo\n" + description + "allowed-tools: [Bash, Read]\n").empty());
  CHECK(check("name: demo\nname: demo\n" + description).size() == 1);  // duplicate key
  auto metadata_number = check("name: demo\n" + description + "metadata:\n  version: 1.0\n");
  REQUIRE(metadata_number.size() == 1);
  CHECK(metadata_number[0].severity == Severity::Warning);  // typed readers see a float
  // No front matter at all, and one never closed.
  CHECK(kl::guidance::read_skill_front_matter("# Just a heading\n", "SKILL.md", "demo").problems.size() == 1);
  CHECK(kl::guidance::read_skill_front_matter("---\nname: demo\n", "SKILL.md", "demo").problems.size() == 1);
}

TEST_CASE("an unsaved SKILL.md buffer is checked against its folder on disk") {
  const fs::path skill_md = kFixtures / "broken-link" / "SKILL.md";
  auto findings = kl::guidance::validate_skill_text(
      "---\nname: broken-link\ndescription: Fixed.\n---\n[ok](references/present.md)\n", skill_md);
  INFO(describe(findings));
  CHECK(findings.empty());
}

TEST_CASE("Markdown outline: headings outside code, links with positions") {
  auto outline = kl::guidance::outline_markdown(
      "---\ntitle: x\n---\n# One __two__ #\n```\n# not a heading\n```\nSee [a](b.md) and "
      "[c](d.md#x).\n\nTwo\n---\n",
      3);
  REQUIRE(outline.headings.size() == 2);
  CHECK(outline.headings[0].text == "One __two__");  // as written, closing #s dropped
  CHECK(outline.headings[0].line == 3);
  CHECK(outline.headings[1].text == "Two");  // setext
  CHECK(outline.headings[1].level == 2);
  REQUIRE(outline.links.size() == 2);
  CHECK(outline.links[0].destination == "b.md");
  CHECK(outline.links[0].line == 7);
  CHECK(outline.links[0].column == 8);
  CHECK(outline.links[1].destination == "d.md#x");
  CHECK(outline.links[1].column == 22);
}
