#include "guidance/skill_sections.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "guidance/skill_front_matter.h"
#include "guidance/skill_markdown.h"
#include "support/fs_paths.h"
#include "support/text.h"

namespace kl::guidance {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> words_of(std::string_view normalized) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start < normalized.size()) {
    size_t space = normalized.find(' ', start);
    if (space == std::string_view::npos) space = normalized.size();
    if (space > start) words.emplace_back(normalized.substr(start, space - start));
    start = space + 1;
  }
  return words;
}

bool contains_word(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

// Words that every section has; they would only add noise to a ranking.
bool is_stop_word(const std::string& word) {
  static const std::set<std::string> kStop = {"a",   "an", "the", "of",   "to",  "in",   "on",   "for",
                                              "and", "or", "is",  "it",   "how", "what", "with", "my",
                                              "do",  "i",  "use", "when", "why", "does", "can",  "be"};
  return kStop.count(word) > 0;
}

size_t count_occurrences(std::string_view haystack, std::string_view needle) {
  size_t count = 0;
  for (size_t at = haystack.find(needle); at != std::string_view::npos;
       at = haystack.find(needle, at + needle.size()))
    ++count;
  return count;
}

void add_page(const fs::path& folder, const std::string& file, std::string_view text,
              std::vector<SkillSection>& out) {
  uint32_t first_line = fs::path(file).filename() == "SKILL.md" ? front_matter_end(text) : 0;
  MarkdownOutline outline = outline_markdown(text, first_line);
  std::vector<std::string_view> lines = split_lines(text);
  const auto& headings = outline.headings;
  for (size_t i = 0; i < headings.size(); ++i) {
    SkillSection section;
    section.heading = headings[i].text;
    section.level = headings[i].level;
    section.file = file;
    section.path = (folder / file).lexically_normal();
    section.first_line = headings[i].line;
    section.end_line = outline.line_count;
    for (size_t j = i + 1; j < headings.size(); ++j) {
      if (headings[j].level <= headings[i].level) {
        section.end_line = headings[j].line;
        break;
      }
    }
    uint32_t last = section.end_line;
    while (last > section.first_line + 1 && last - 1 < lines.size() &&
           lines[last - 1].find_first_not_of(" \t") == std::string_view::npos)
      --last;  // trailing blank lines belong to nobody
    for (uint32_t line = section.first_line; line < last && line < lines.size(); ++line) {
      section.text += lines[line];
      section.text += '\n';
    }
    out.push_back(std::move(section));
  }
}

}  // namespace

std::string normalize_heading(std::string_view text) {
  std::string out;
  bool space = true;  // drops leading spaces
  for (unsigned char c : text) {
    bool keep = std::isalnum(c) || c == '_' || c == '.' || c == '-' || c == '+' || c == '/' || c == '<' ||
                c == '>' || c == '#' || c == '=' || c >= 0x80;
    if (keep) {
      out += static_cast<char>(std::tolower(c));
      space = false;
    } else if (!space) {
      out += ' ';
      space = true;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  // A trailing '.' ends a sentence, not a name.
  while (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}

SkillSectionIndex SkillSectionIndex::from_pages(
    const fs::path& skill_folder, const std::vector<std::pair<std::string, std::string>>& pages) {
  SkillSectionIndex index;
  for (const auto& [file, text] : pages) add_page(skill_folder, file, text, index.sections_);
  return index;
}

SkillSectionIndex SkillSectionIndex::build(const fs::path& skill_folder) {
  std::vector<std::pair<std::string, std::string>> pages;
  if (auto text = read_file_text(skill_folder / "SKILL.md")) pages.emplace_back("SKILL.md", std::move(*text));
  std::error_code ec;
  std::vector<std::string> references;
  const fs::path root = skill_folder / "references";
  if (fs::is_directory(root, ec)) {
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file() && it->path().extension() == ".md")
        references.push_back(it->path().lexically_relative(skill_folder).generic_string());
  }
  std::sort(references.begin(), references.end());
  for (const auto& file : references)
    if (auto text = read_file_text(skill_folder / file)) pages.emplace_back(file, std::move(*text));
  return from_pages(skill_folder, pages);
}

const SkillSection* SkillSectionIndex::find_heading(std::string_view heading, std::string_view file) const {
  const std::string wanted = normalize_heading(heading);
  if (wanted.empty()) return nullptr;
  const std::vector<std::string> wanted_words = words_of(wanted);
  // Passes from strict to loose; within a pass the requested file wins, then source order.
  for (int pass = 0; pass < 3; ++pass) {
    const SkillSection* found = nullptr;
    for (const auto& section : sections_) {
      const std::string have = normalize_heading(section.heading);
      bool match = false;
      if (pass == 0) {
        match = have == wanted;
      } else if (pass == 1) {
        match = have.compare(0, wanted.size(), wanted) == 0;
      } else {
        const std::vector<std::string> have_words = words_of(have);
        match = std::all_of(wanted_words.begin(), wanted_words.end(),
                            [&](const std::string& w) { return contains_word(have_words, w); });
      }
      if (!match) continue;
      if (file.empty() || section.file == file) return &section;
      if (!found) found = &section;
    }
    if (found) return found;
  }
  return nullptr;
}

const SkillSection* SkillSectionIndex::page(std::string_view file) const {
  const SkillSection* best = nullptr;
  for (const auto& section : sections_)
    if (section.file == file && (!best || section.level < best->level)) best = &section;
  return best;
}

const SkillSection* SkillSectionIndex::find_rule(std::string_view rule_id) const {
  if (rule_id.empty()) return nullptr;
  return page("references/rules/" + std::string(rule_id) + ".md");
}

std::vector<const SkillSection*> SkillSectionIndex::search(std::string_view topic, size_t limit) const {
  std::vector<std::string> words;
  for (auto& word : words_of(normalize_heading(topic)))
    if (!is_stop_word(word) && !contains_word(words, word)) words.push_back(word);
  if (words.empty()) return {};

  struct Scored {
    const SkillSection* section;
    double score;
  };
  std::vector<Scored> scored;
  for (const auto& section : sections_) {
    const std::string heading = normalize_heading(section.heading);
    const std::vector<std::string> heading_words = words_of(heading);
    const std::string body = kl::ascii_lower(section.text);
    double score = 0;
    size_t matched = 0;
    for (const auto& word : words) {
      bool in_heading = contains_word(heading_words, word) || heading.find(word) != std::string::npos;
      size_t in_body = count_occurrences(body, word);
      if (in_heading) score += 4;
      if (in_body) score += 1 + std::min<size_t>(in_body, 8) * 0.125;
      if (in_heading || in_body) ++matched;
    }
    if (matched == 0) continue;
    // Every word found counts more than many hits of one word.
    score *= static_cast<double>(matched) / static_cast<double>(words.size());
    scored.push_back({&section, score});
  }
  std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    if (a.score != b.score) return a.score > b.score;
    // Equal: the narrower section (a subsection rather than the page holding it).
    return (a.section->end_line - a.section->first_line) < (b.section->end_line - b.section->first_line);
  });
  std::vector<const SkillSection*> out;
  for (size_t i = 0; i < scored.size() && out.size() < limit; ++i) out.push_back(scored[i].section);
  return out;
}

}  // namespace kl::guidance
