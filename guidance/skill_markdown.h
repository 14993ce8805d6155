#pragma once
// The structure of one Markdown file of a skill, as CommonMark (libcmark) sees it: its headings
// (ATX and setext; never a `# comment` inside a fenced code block) and the destinations of its
// links and images, each with the 0-based line and UTF-8 column where the source writes it.
// Pure; O(text). Lines before `first_line` (a SKILL.md's YAML front matter) are not Markdown
// and are ignored, but keep their numbers.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kl::guidance {

struct MarkdownHeading {
  std::string text;  // as written (ATX: without the #s), so `__shared__` keeps its underscores
  int level = 1;     // 1..6
  uint32_t line = 0;
};

struct MarkdownLink {
  std::string destination;  // as written (not percent-decoded)
  uint32_t line = 0;        // where the destination starts
  uint32_t column = 0;
};

struct MarkdownOutline {
  std::vector<MarkdownHeading> headings;  // in source order
  std::vector<MarkdownLink> links;        // in source order
  uint32_t line_count = 0;                // a trailing newline does not start a line
};

MarkdownOutline outline_markdown(std::string_view text, uint32_t first_line = 0);

// The text split at '\n' ("\r\n" too), without the terminators; a trailing newline does not
// add an empty last line.
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace kl::guidance
