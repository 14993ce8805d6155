#pragma once
// The sections of one skill, indexed by heading across SKILL.md and references/**/*.md: what
// hovers, completion documentation, `kernel-lsp skills show` and the `kernel-lsp/guidance`
// request serve. A section runs from its heading to the next heading of the same or a higher
// level (so a `##` section holds its `###` subsections), or to the end of the file.
//
// Lookups:
//  - by heading: case-insensitive, tolerant of Markdown punctuation (backticks, parentheses);
//    an exact match wins over a prefix match, which wins over a match of all the words;
//  - by rule id: the page references/rules/<id>.md as a whole;
//  - by topic: free text, sections ranked by how many of its words the heading and body hold.
// Immutable once built; safe to share between threads. Building reads every page: O(skill).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kl::guidance {

struct SkillSection {
  std::string heading;  // as written, without the #s
  int level = 1;
  std::string file;            // relative to the skill folder, '/' separated: "references/constructs.md"
  std::filesystem::path path;  // absolute
  uint32_t first_line = 0;     // the heading's line, 0-based
  uint32_t end_line = 0;       // one past the last line of the section
  std::string text;            // the section's lines, heading included, '\n' terminated
};

class SkillSectionIndex {
 public:
  // SKILL.md first, then references/ pages in path order. Missing pages are skipped.
  static SkillSectionIndex build(const std::filesystem::path& skill_folder);
  // From texts already read (tests, unsaved buffers): `pages` maps relative file → text.
  static SkillSectionIndex from_pages(const std::filesystem::path& skill_folder,
                                      const std::vector<std::pair<std::string, std::string>>& pages);

  const std::vector<SkillSection>& sections() const { return sections_; }
  // `file` (relative) narrows the search to one page when set.
  const SkillSection* find_heading(std::string_view heading, std::string_view file = {}) const;
  const SkillSection* find_rule(std::string_view rule_id) const;
  // The section that is the whole page (its first heading, or the page as one section).
  const SkillSection* page(std::string_view file) const;
  // Best first; sections scoring zero are left out.
  std::vector<const SkillSection*> search(std::string_view topic, size_t limit = 5) const;

 private:
  std::vector<SkillSection> sections_;
};

// Lower case, Markdown punctuation dropped, runs of spaces collapsed: "`cp.async` (Ampere)" →
// "cp.async ampere". Underscores, dots and dashes are kept: they are part of CUDA names.
std::string normalize_heading(std::string_view text);

}  // namespace kl::guidance
