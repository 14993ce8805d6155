// Links from findings to guidance pages (guidance/guidance_links.h): every rule of the catalog
// links to a page that exists in the installed skill, a configured documentation base or
// template gives base + page, and nothing links to a page that is not there.
#include "guidance/guidance_links.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "analyzers/rules/rule_catalog.h"
#include "guidance/skill_catalog.h"
#include "guidance/skill_guidance.h"

namespace fs = std::filesystem;
using kl::guidance::docs_base_problem;
using kl::guidance::GuidanceLinks;

namespace {

// file:///a%20b/c → /a b/c (the inverse of guidance::file_uri, written again here on purpose).
fs::path path_of_file_uri(const std::string& uri) {
  REQUIRE(uri.rfind("file:///", 0) == 0);
  std::string path;
  for (size_t i = std::string("file://").size(); i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size()) {
      path.push_back(static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      path.push_back(uri[i]);
    }
  }
  return path;
}

}  // namespace

TEST_CASE("every rule links to its installed guidance page, a file that exists") {
  const GuidanceLinks links = GuidanceLinks::bundled();
  CHECK(links.base().empty());
  for (const kl::analyzers::Rule* rule : kl::analyzers::rule_catalog()) {
    INFO(rule->id);
    std::string link = links.help_uri_for(rule->id);
    REQUIRE_FALSE(link.empty());
    fs::path page = path_of_file_uri(link);
    CHECK(page.is_absolute());
    CHECK(fs::is_regular_file(page));
    CHECK(page.generic_string().ends_with("skills/cuda-kernels/" + std::string(rule->guidance_page)));
  }
}

TEST_CASE("findings that are no rule's link to a real page or to none") {
  const GuidanceLinks links = GuidanceLinks::bundled();
  CHECK(links.help_uri_for("no-such-rule").empty());
  CHECK(links.help_uri_for("").empty());
  CHECK(GuidanceLinks::under_base("https://docs.example.org").help_uri_for("no-such-rule").empty());
}

TEST_CASE("a documentation base gives base + the page's path in the skill") {
  const GuidanceLinks links =
      GuidanceLinks::under_base("https://github.com/me/kl/blob/v1/skills/cuda-kernels/");
  CHECK(links.help_uri_for("arch-mismatch") ==
        "https://github.com/me/kl/blob/v1/skills/cuda-kernels/references/rules/arch-mismatch.md");
  CHECK(links.help_uri_for("ptxas") ==
        "https://github.com/me/kl/blob/v1/skills/cuda-kernels/references/rules/build-messages.md");
  CHECK(links.help_uri_for("frontend") ==
        "https://github.com/me/kl/blob/v1/skills/cuda-kernels/references/troubleshooting.md");
  CHECK(links.help_uri_for("skill") ==
        "https://github.com/me/kl/blob/v1/skills/cuda-kernels/references/rules/skill.md");
  CHECK(GuidanceLinks::for_setting("").base().empty());
  CHECK(GuidanceLinks::for_setting("file:///srv/docs").help_uri_for("smem-limit") ==
        "file:///srv/docs/references/rules/smem-limit.md");
}

TEST_CASE("a template replaces {id} and {page}") {
  CHECK(
      GuidanceLinks::under_base("https://wiki.example.org/kernel-lsp/{id}.html").help_uri_for("smem-limit") ==
      "https://wiki.example.org/kernel-lsp/smem-limit.html");
  CHECK(GuidanceLinks::under_base("https://h/{page}?rule={id}").help_uri_for("nvcc") ==
        "https://h/references/rules/build-messages.md?rule=nvcc");
  // A template's trailing slash is the user's to keep.
  CHECK(GuidanceLinks::under_base("https://h/{id}/").help_uri_for("arch-mismatch") ==
        "https://h/arch-mismatch/");
}

TEST_CASE("a documentation base must be an absolute URL without stray placeholders") {
  CHECK(docs_base_problem("https://docs.example.org/kl").empty());
  CHECK(docs_base_problem("file:///usr/share/kernel-lsp/skills/cuda-kernels").empty());
  CHECK(docs_base_problem("https://h/{id}.html").empty());
  CHECK(docs_base_problem("docs/rules").find("not an absolute URL") != std::string::npos);
  CHECK(docs_base_problem("/usr/share/docs").find("not an absolute URL") != std::string::npos);
  CHECK(docs_base_problem("https:").find("not an absolute URL") != std::string::npos);
  CHECK(docs_base_problem("1http://h").find("not an absolute URL") != std::string::npos);
  CHECK(docs_base_problem("https://h/my docs").find("space") != std::string::npos);
  CHECK(docs_base_problem("https://h/{rule}.md").find("placeholder") != std::string::npos);
  CHECK_FALSE(docs_base_problem("").empty());
}

TEST_CASE("guidance shown in the editor links only to pages that exist") {
  // Every section of the bundled skill, rendered as hovers and kernel-lsp/guidance show it: the
  // pages' relative links (../gpu-t4.md) would resolve against nothing there, so they must come
  // out as file: URIs of existing files.
  auto folder = kl::guidance::SkillCatalog::bundled_folder();
  REQUIRE(folder);
  auto catalog = kl::guidance::SkillCatalog::load({{*folder, kl::guidance::SkillOrigin::Bundled}});
  auto skill = catalog.find(kl::guidance::kCudaKernelsSkill);
  REQUIRE(skill);
  size_t links = 0;
  for (const auto& section : skill->sections().sections()) {
    std::string markdown = kl::guidance::render_guidance(*skill, section, 100000).markdown;
    bool in_fence = false;
    size_t line_start = 0;
    while (line_start < markdown.size()) {
      size_t line_end = markdown.find('\n', line_start);
      if (line_end == std::string::npos) line_end = markdown.size();
      std::string line = markdown.substr(line_start, line_end - line_start);
      line_start = line_end + 1;
      if (line.rfind("```", 0) == 0) in_fence = !in_fence;
      if (in_fence) continue;
      for (size_t at = line.find("]("); at != std::string::npos; at = line.find("](", at + 2)) {
        std::string target = line.substr(at + 2, line.find_first_of(") ", at + 2) - at - 2);
        INFO(section.file << ":" << section.first_line + 1 << " links to " << target);
        if (target.rfind("http", 0) == 0 || target.rfind("#", 0) == 0) continue;
        ++links;
        REQUIRE(target.rfind("file:///", 0) == 0);
        CHECK(fs::exists(path_of_file_uri(target.substr(0, target.find('#')))));
      }
    }
  }
  CHECK(links > 50);  // the "From <page>" link of each section, and the pages' own links
}
