#include "guidance/skill_guidance.h"

#include "analyzers/rules/rule_catalog.h"
#include "guidance/skill_markdown.h"

namespace kl::guidance {
namespace {

bool is_fence(std::string_view line) {
  size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos || start > 3) return false;
  line.remove_prefix(start);
  return line.substr(0, 3) == "```" || line.substr(0, 3) == "~~~";
}

// A Markdown link target that names a file relative to the page (`../gpu-t4.md`,
// `rules/smem-limit.md#fix`): no scheme, not absolute, not a fragment alone.
bool is_relative_target(std::string_view target) {
  if (target.empty() || target.front() == '#' || target.front() == '/') return false;
  size_t colon = target.find(':');
  return colon == std::string_view::npos || target.find_first_of("/?#") < colon;
}

// `line` with its relative link targets made file: URIs of the files they name next to `page`:
// shown in a hover or a guidance panel, a relative link would resolve against nothing. A
// target whose file does not exist is left as written.
std::string absolute_links(std::string_view line, const std::filesystem::path& page) {
  std::string out;
  size_t done = 0;
  for (size_t at = line.find("]("); at != std::string_view::npos; at = line.find("](", at + 2)) {
    size_t start = at + 2, end = line.find_first_of(") \t", start);
    if (end == std::string_view::npos) break;
    std::string_view target = line.substr(start, end - start);
    if (!is_relative_target(target)) continue;
    size_t hash = target.find('#');
    std::filesystem::path file =
        (page.parent_path() / std::string(target.substr(0, hash))).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) continue;
    out.append(line.substr(done, start - done));
    out += file_uri(file);
    if (hash != std::string_view::npos) out.append(target.substr(hash));
    done = end;
  }
  out.append(line.substr(done));
  return out;
}

}  // namespace

std::string file_uri(const std::filesystem::path& path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : path.generic_string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

Guidance render_guidance(const Skill& skill, const SkillSection& section, size_t max_lines) {
  Guidance g;
  g.title = section.heading;
  g.file = section.path;
  g.relative_file = section.file;
  g.line = section.first_line;
  g.skill = skill.name();

  std::vector<std::string_view> lines = split_lines(section.text);
  std::string body;
  bool in_fence = false;
  size_t kept = 0;
  // Line 0 is the heading; it becomes the bold title.
  for (size_t i = 1; i < lines.size(); ++i) {
    if (kept == max_lines) {
      g.trimmed = true;
      break;
    }
    if (is_fence(lines[i])) in_fence = !in_fence;
    body += in_fence ? std::string(lines[i]) : absolute_links(lines[i], section.path);
    body += '\n';
    ++kept;
  }
  if (g.trimmed && in_fence) body += "```\n";  // a cut code block would swallow the link

  const std::string link = "[" + section.file + "](" + file_uri(section.path) + "#L" +
                           std::to_string(section.first_line + 1) + ")";
  g.markdown = "**" + section.heading + "** — `" + skill.name() + "` skill\n\n" + body;
  if (g.trimmed)
    g.markdown += "\n… " + std::to_string(lines.size() - 1 - kept) + " more lines in " + link + "\n";
  else
    g.markdown += "\nFrom " + link + "\n";
  return g;
}

SkillGuidance::SkillGuidance(std::shared_ptr<const SkillCatalog> catalog, const ConstructTable& constructs)
    : catalog_(std::move(catalog)), constructs_(constructs) {}

std::optional<Guidance> SkillGuidance::for_construct(const Construct& construct, size_t max_lines) const {
  for (const auto& skill : catalog_->find_all(kCudaKernelsSkill))
    if (const SkillSection* section = skill->sections().find_heading(construct.heading, construct.file))
      return render_guidance(*skill, *section, max_lines);
  return std::nullopt;
}

std::optional<Guidance> SkillGuidance::for_rule(std::string_view rule_id, size_t max_lines) const {
  const analyzers::Rule* rule = analyzers::find_rule(rule_id);
  for (const auto& skill : catalog_->find_all(kCudaKernelsSkill)) {
    const SkillSectionIndex& index = skill->sections();
    if (const SkillSection* section = index.find_rule(rule_id))
      return render_guidance(*skill, *section, max_lines);
    // A rule whose page is elsewhere (frontend → troubleshooting.md).
    if (rule)
      if (const SkillSection* section = index.page(rule->guidance_page))
        return render_guidance(*skill, *section, max_lines);
  }
  return std::nullopt;
}

std::optional<Guidance> SkillGuidance::for_heading(std::string_view heading, size_t max_lines) const {
  for (const auto& skill : catalog_->find_all(kCudaKernelsSkill))
    if (const SkillSection* section = skill->sections().find_heading(heading))
      return render_guidance(*skill, *section, max_lines);
  return std::nullopt;
}

std::optional<Guidance> SkillGuidance::for_topic(std::string_view topic, size_t max_lines) const {
  for (const auto& skill : catalog_->find_all(kCudaKernelsSkill)) {
    auto ranked = skill->sections().search(topic, 1);
    if (!ranked.empty()) return render_guidance(*skill, *ranked.front(), max_lines);
  }
  return std::nullopt;
}

std::optional<Guidance> SkillGuidance::at(std::string_view line, size_t column, ConstructScope scope,
                                          size_t max_lines, ConstructHit* hit) const {
  std::optional<ConstructHit> found = constructs_.match_at(line, column, scope);
  if (!found) return std::nullopt;
  if (hit) *hit = *found;
  return for_construct(*found->construct, max_lines);
}

std::optional<Guidance> SkillGuidance::lookup(const GuidanceQuery& query, size_t max_lines) const {
  if (!query.rule_id.empty())
    if (auto g = for_rule(query.rule_id, max_lines)) return g;
  if (!query.construct.empty()) {
    if (const Construct* construct = constructs_.find(query.construct))
      if (auto g = for_construct(*construct, max_lines)) return g;
    // Not in the table: perhaps a heading ("Grid and block sizing").
    if (auto g = for_heading(query.construct, max_lines)) return g;
  }
  if (!query.topic.empty())
    if (auto g = for_topic(query.topic, max_lines)) return g;
  return std::nullopt;
}

}  // namespace kl::guidance
