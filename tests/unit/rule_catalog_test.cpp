// The rule catalog and the Rule descriptor, read as a specification: which rules exist, in which
// order, what each one declares, and how the build.toml rules turn a reading of build.toml into
// findings. The source rules' findings are specified end to end in analysis_test and
// access_model_test; their guidance pages in skill_sections_test.
#include "analyzers/rules/rule_catalog.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzers/data/arch_table.h"
#include "analyzers/project/build_config.h"
#include "analyzers/rules/rule_input.h"

namespace {

using namespace kl::analyzers;

constexpr std::string_view kBuildToml = R"([general]
name = "rmsnorm"
version = 1
edition = 5
license = "apache-2.0"
backends = ["cuda"]

[torch]
src = ["torch-ext/torch_binding.cpp"]

[kernel.rmsnorm]
backend = "cuda"
depends = ["torch"]
src = ["rmsnorm_cuda/rmsnorm.cu"]
cuda-capabilities = ["8.0", "sm_90", "13.7"]
)";

std::vector<Finding> run_build_toml_rule(std::string_view id, const BuildConfigParse& parse) {
  const Rule* rule = find_rule(id);
  REQUIRE(rule);
  REQUIRE(rule->build_toml_check);
  BuildTomlInput input;
  input.parse = &parse;
  input.archs = &ArchTable::builtin();
  std::vector<Finding> out;
  rule->build_toml_check(input, out);
  return out;
}

}  // namespace

TEST_CASE("the catalog lists every rule once, in a fixed order") {
  std::vector<std::string> ids;
  for (const Rule* rule : rule_catalog()) ids.emplace_back(rule->id);
  // The order of SARIF's rule list, and the order the checks run in.
  CHECK(ids == std::vector<std::string>{"arch-mismatch", "arch-unsupported", "smem-limit",
                                        "uncoalesced-access", "misaligned-access", "bank-conflict", "shared-race", "divergent-barrier",
                                        "out-of-bounds", "build-toml",
                                        "frontend", "nvcc", "ptxas", "compute-sanitizer", "skill"});
  for (const Rule* rule : rule_catalog()) CHECK(find_rule(rule->id) == rule);
  CHECK(find_rule("no-such-rule") == nullptr);
  CHECK(find_rule(kFrontend)->id == "frontend");
}

TEST_CASE("each rule declares its default severity, a summary, its guidance page and one input") {
  struct Expected {
    std::string_view id;
    Severity severity;
    bool reads_source;
    bool reads_build_toml;
  };
  const Expected expected[] = {
      {"arch-mismatch", Severity::Error, true, false},
      {"arch-unsupported", Severity::Error, false, true},
      {"smem-limit", Severity::Error, true, false},
      {"uncoalesced-access", Severity::Warning, true, false},
      {"misaligned-access", Severity::Error, true, false},
      {"bank-conflict", Severity::Warning, true, false},
      {"out-of-bounds", Severity::Warning, true, false},
      {"build-toml", Severity::Error, false, true},
      {"frontend", Severity::Information, false, false},
      {"nvcc", Severity::Error, false, false},
      {"ptxas", Severity::Error, false, false},
      {"compute-sanitizer", Severity::Error, false, false},
  };
  for (const Expected& e : expected) {
    INFO(e.id);
    const Rule* rule = find_rule(e.id);
    REQUIRE(rule);
    CHECK(rule->default_severity == e.severity);
    CHECK_FALSE(rule->summary.empty());
    CHECK((rule->source_check != nullptr) == e.reads_source);
    CHECK((rule->build_toml_check != nullptr) == e.reads_build_toml);
    std::string page = rule->id == kFrontend ? "references/troubleshooting.md"
                       : rule->id == kNvcc || rule->id == kPtxas
                           ? "references/rules/build-messages.md"
                           : "references/rules/" + std::string(rule->id) + ".md";
    CHECK(rule->guidance_page == page);
  }
}

TEST_CASE("a rule's finding carries its id and its default severity") {
  const Rule* rule = find_rule("uncoalesced-access");
  REQUIRE(rule);
  Location where{"/p/k.cu", Range{{3, 4}, {3, 9}}};
  Finding f = rule->finding(where, "a message");
  CHECK(f.rule_id == "uncoalesced-access");
  CHECK(f.severity == Severity::Warning);
  CHECK(f.location == where);
  CHECK(f.message == "a message");
  CHECK(f.notes.empty());
  CHECK(f.fixes.empty());
}

TEST_CASE("build-toml reports the reader's problems as its findings, otherwise unchanged") {
  BuildConfigParse parsed =
      parse_build_toml("/project/build.toml", std::string(kBuildToml) + "licence = 1\n");
  REQUIRE_FALSE(parsed.problems.empty());
  std::vector<Finding> findings = run_build_toml_rule("build-toml", parsed);
  REQUIRE(findings.size() == parsed.problems.size());
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& problem = parsed.problems[i];
    const Finding& f = findings[i];
    CHECK(problem.rule_id.empty());
    CHECK(f.rule_id == "build-toml");
    CHECK(f.severity == problem.severity);
    CHECK(f.location == problem.location);
    CHECK(f.message == problem.message);
    CHECK(f.fixes.size() == problem.fixes.size());
    CHECK(f.notes.size() == problem.notes.size());
  }
  BuildConfigParse broken = parse_build_toml("/project/build.toml", "[general\n");
  REQUIRE(broken.problems.size() == 1);
  CHECK(run_build_toml_rule("build-toml", broken).size() == 1);
}

TEST_CASE("arch-unsupported reads build.toml's capabilities, and nothing when it cannot be read") {
  BuildConfigParse parsed = parse_build_toml("/project/build.toml", kBuildToml);
  INFO(parsed.problems.size());
  REQUIRE(parsed.config);
  std::vector<Finding> findings = run_build_toml_rule("arch-unsupported", parsed);
  // Without a toolkit only what no toolkit could target: "sm_90" and "13.7", in list order.
  REQUIRE(findings.size() == 2);
  const auto& entries = *parsed.config->kernels[0].cuda_capabilities;
  CHECK(findings[0].location.range == entries[1].range);
  CHECK(findings[0].message.rfind("`sm_90` is not a compute capability", 0) == 0);
  CHECK(findings[1].location.range == entries[2].range);
  CHECK(findings[1].message.rfind("unknown compute capability 13.7: no GPU has it", 0) == 0);
  REQUIRE(findings[1].fixes.size() == 1);
  for (const Finding& f : findings) {
    CHECK(f.rule_id == "arch-unsupported");
    CHECK(f.severity == Severity::Error);
    CHECK(f.location.file == parsed.config->file.string());
  }

  BuildConfigParse broken = parse_build_toml("/project/build.toml", "[general\n");
  REQUIRE_FALSE(broken.config);
  CHECK(run_build_toml_rule("arch-unsupported", broken).empty());
}

TEST_CASE("the README's rule table is the catalog: the same ids, in order, with their default severity") {
  std::ifstream readme(std::string(KL_SOURCE_DIR) + "/README.md");
  REQUIRE(readme);
  std::vector<std::pair<std::string, std::string>> rows;  // id, "default" column
  bool in_rules = false;
  for (std::string line; std::getline(readme, line);) {
    if (line.rfind("## ", 0) == 0) in_rules = line == "## Rules";
    if (!in_rules || line.rfind("| `", 0) != 0) continue;
    size_t id_end = line.find('`', 3);
    size_t column = line.find('|', id_end);
    size_t column_end = line.find('|', column + 1);
    REQUIRE(column_end != std::string::npos);
    std::string severity = line.substr(column + 1, column_end - column - 1);
    std::istringstream words(severity);
    std::string first;
    words >> first;
    rows.emplace_back(line.substr(3, id_end - 3), first);
  }
  REQUIRE(rows.size() == rule_catalog().size());
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO(rows[i].first);
    CHECK(rows[i].first == rule_catalog()[i]->id);
    CHECK(rows[i].second == severity_name(rule_catalog()[i]->default_severity));
  }
}
