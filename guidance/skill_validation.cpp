#include "guidance/skill_validation.h"

#include <algorithm>

#include "guidance/skill_front_matter.h"
#include "guidance/skill_markdown.h"
#include "support/fs_paths.h"

namespace kl::guidance {
namespace {

namespace fs = std::filesystem;
using analyzers::Severity;

bool is_external(std::string_view destination) {
  if (destination.empty() || destination[0] == '#') return true;
  size_t colon = destination.find(':');
  size_t slash = destination.find('/');
  // A scheme (https:, mailto:, vscode:) comes before any slash.
  return colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash);
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

bool inside(const fs::path& folder, const fs::path& target) {
  fs::path relative = target.lexically_normal().lexically_relative(folder.lexically_normal());
  return !relative.empty() && *relative.begin() != "..";
}

// Every relative link of one Markdown file must name something that exists.
void check_links(std::string_view text, uint32_t first_line, const fs::path& file,
                 const fs::path& skill_folder, std::vector<analyzers::Finding>& out) {
  MarkdownOutline outline = outline_markdown(text, first_line);
  const fs::path base = file.parent_path();
  for (const auto& link : outline.links) {
    if (is_external(link.destination)) continue;
    std::string target = link.destination.substr(0, link.destination.find_first_of("#?"));
    if (target.empty()) continue;
    const uint32_t length = static_cast<uint32_t>(link.destination.size());
    if (target[0] == '/') {
      out.push_back(skill_finding(
          Severity::Warning, file.string(), link.line, link.column, length,
          "link `" + link.destination +
              "` is an absolute path; use a path relative to this file so installed copies work"));
      continue;
    }
    fs::path resolved = (base / percent_decode(target)).lexically_normal();
    std::error_code ec;
    if (!fs::exists(resolved, ec)) {
      out.push_back(skill_finding(Severity::Error, file.string(), link.line, link.column, length,
                                  "link target `" + target + "` does not exist (looked for " +
                                      resolved.lexically_relative(skill_folder).string() +
                                      " in the skill folder)"));
    } else if (!inside(skill_folder, resolved)) {
      out.push_back(skill_finding(Severity::Warning, file.string(), link.line, link.column, length,
                                  "link `" + target +
                                      "` leaves the skill's folder; an installed copy of the skill "
                                      "will not contain it"));
    }
  }
}

void sort_findings(std::vector<analyzers::Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const analyzers::Finding& a, const analyzers::Finding& b) {
                     if (a.location.file != b.location.file) {
                       // SKILL.md first, then references in path order.
                       bool a_skill = fs::path(a.location.file).filename() == "SKILL.md";
                       bool b_skill = fs::path(b.location.file).filename() == "SKILL.md";
                       if (a_skill != b_skill) return a_skill;
                       return a.location.file < b.location.file;
                     }
                     return a.location.range.start < b.location.range.start;
                   });
}

}  // namespace

std::vector<analyzers::Finding> validate_skill_text(std::string_view text, const fs::path& skill_md) {
  const fs::path folder = skill_md.parent_path();
  FrontMatterReading reading = read_skill_front_matter(text, skill_md.string(), folder.filename().string());
  std::vector<analyzers::Finding> findings = std::move(reading.problems);
  if (reading.front_matter) {
    std::vector<std::string_view> lines = split_lines(text);
    uint32_t body_lines = static_cast<uint32_t>(lines.size()) - reading.body_line;
    if (body_lines > kSkillBodyLineLimit) {
      uint32_t line = reading.body_line + kSkillBodyLineLimit;
      findings.push_back(skill_finding(
          Severity::Warning, skill_md.string(), line, 0, static_cast<uint32_t>(lines[line].size()),
          "SKILL.md's body has " + std::to_string(body_lines) + " lines; keep it under " +
              std::to_string(kSkillBodyLineLimit) +
              " (agents load all of it when the skill applies) and move detail into references/"));
    }
  }
  check_links(text, reading.body_line, skill_md, folder, findings);
  sort_findings(findings);
  return findings;
}

std::vector<analyzers::Finding> validate_skill_folder(const fs::path& folder) {
  const fs::path skill_md = folder / "SKILL.md";
  std::optional<std::string> text = read_file_text(skill_md);
  if (!text) {
    return {skill_finding(Severity::Error, skill_md.string(), 0, 0, 0,
                          "no SKILL.md in " + folder.string() + ": a skill is a folder with a SKILL.md")};
  }
  std::vector<analyzers::Finding> findings = validate_skill_text(*text, skill_md);
  std::error_code ec;
  const fs::path references = folder / "references";
  if (fs::is_directory(references, ec)) {
    std::vector<fs::path> pages;
    for (auto it = fs::recursive_directory_iterator(references, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file() && it->path().extension() == ".md") pages.push_back(it->path());
    std::sort(pages.begin(), pages.end());
    for (const auto& page : pages)
      if (auto page_text = read_file_text(page)) check_links(*page_text, 0, page, folder, findings);
  }
  sort_findings(findings);
  return findings;
}

bool has_errors(const std::vector<analyzers::Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const analyzers::Finding& f) { return f.severity == Severity::Error; });
}

}  // namespace kl::guidance
