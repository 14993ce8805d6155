#include "guidance/skill_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "support/fs_paths.h"
#include "support/resources.h"

namespace kl::guidance {
namespace {

namespace fs = std::filesystem;

fs::path canonical_or_normal(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? path.lexically_normal() : canonical;
}

}  // namespace

std::string_view origin_name(SkillOrigin origin) {
  switch (origin) {
    case SkillOrigin::Workspace:
      return "workspace";
    case SkillOrigin::User:
      return "user";
    case SkillOrigin::Bundled:
      return "bundled";
  }
  return "bundled";
}

std::vector<SkillFolder> skill_search_folders(const std::vector<fs::path>& workspace_roots, fs::path home) {
  std::vector<SkillFolder> folders;
  for (const auto& root : workspace_roots)
    for (const char* relative : {".skills", "skills", ".claude/skills", ".codex/skills", ".opencode/skills"})
      folders.push_back({root / relative, SkillOrigin::Workspace});
  if (home.empty())
    if (const char* env = std::getenv("HOME"); env && *env) home = env;
  if (!home.empty())
    for (const char* relative : {".claude/skills", ".codex/skills", ".config/opencode/skills"})
      folders.push_back({home / relative, SkillOrigin::User});
  if (auto bundled = SkillCatalog::bundled_folder()) folders.push_back({*bundled, SkillOrigin::Bundled});
  return folders;
}

Skill::Skill(fs::path folder, SkillOrigin origin, SkillFrontMatter front_matter, bool valid)
    : folder_(std::move(folder)), origin_(origin), front_matter_(std::move(front_matter)), valid_(valid) {}

const SkillSectionIndex& Skill::sections() const {
  std::call_once(sections_once_, [this] {
    sections_ = std::make_unique<SkillSectionIndex>(SkillSectionIndex::build(folder_));
  });
  return *sections_;
}

std::optional<fs::path> SkillCatalog::bundled_folder() {
  // The marker is the skill itself, so a resource root without skills is passed over.
  std::string marker = std::string(resources::kSkills) + "/" + std::string(kCudaKernelsSkill) + "/SKILL.md";
  if (auto skill = find_resource(marker))
    return skill->parent_path().parent_path();
  return find_resource(resources::kSkills);
}

SkillCatalog SkillCatalog::load(const std::vector<SkillFolder>& folders) {
  SkillCatalog catalog;
  std::set<fs::path> seen;
  for (const auto& folder : folders) {
    std::error_code ec;
    if (!fs::is_directory(folder.path, ec)) continue;
    std::vector<fs::path> candidates;
    for (auto it = fs::directory_iterator(folder.path, ec); !ec && it != fs::directory_iterator();
         it.increment(ec))
      if (it->is_directory(ec) && fs::is_regular_file(it->path() / "SKILL.md", ec))
        candidates.push_back(it->path());
    std::sort(candidates.begin(), candidates.end());
    for (const auto& candidate : candidates) {
      fs::path canonical = canonical_or_normal(candidate);
      if (!seen.insert(canonical).second) continue;
      std::optional<std::string> text = read_file_text(candidate / "SKILL.md");
      if (!text) continue;
      FrontMatterReading reading =
          read_skill_front_matter(*text, (candidate / "SKILL.md").string(), candidate.filename().string());
      SkillFrontMatter front = reading.front_matter.value_or(SkillFrontMatter{});
      // An unnamed skill is still listed, under its folder's name, so `validate` can be found.
      if (front.name.empty()) front.name = candidate.filename().string();
      bool valid = reading.front_matter && std::none_of(reading.problems.begin(), reading.problems.end(),
                                                        [](const analyzers::Finding& f) {
                                                          return f.severity == analyzers::Severity::Error;
                                                        });
      catalog.skills_.push_back(
          std::make_shared<const Skill>(canonical, folder.origin, std::move(front), valid));
    }
  }
  return catalog;
}

SkillCatalog SkillCatalog::discover(const std::vector<fs::path>& workspace_roots) {
  return load(skill_search_folders(workspace_roots));
}

std::shared_ptr<const Skill> SkillCatalog::find(std::string_view name) const {
  for (const auto& skill : skills_)
    if (skill->name() == name) return skill;
  return nullptr;
}

std::vector<std::shared_ptr<const Skill>> SkillCatalog::find_all(std::string_view name) const {
  std::vector<std::shared_ptr<const Skill>> out;
  for (const auto& skill : skills_)
    if (skill->name() == name) out.push_back(skill);
  return out;
}

}  // namespace kl::guidance
