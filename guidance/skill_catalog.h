#pragma once
// Which skills exist, and where: the bundled one (skills/ next to the binary, found with
// find_resource), the workspace's (`.skills/`, `skills/`, `.claude/skills/`, `.codex/skills/`,
// `.opencode/skills/` under each workspace folder) and the user's agent folders
// (`~/.claude/skills/`, `~/.codex/skills/`, `~/.config/opencode/skills/`). A skill is a
// subfolder holding a SKILL.md.
//
// Precedence, for finding a skill by name: workspace, then user, then bundled: a team's copy in
// its repository (possibly edited) wins over a personal one, which wins over the one shipped
// with kernel-lsp. The same folder reached twice (the kernel-lsp source tree is both a
// workspace and the bundle) is listed once.
//
// Loading reads each SKILL.md's front matter (not the references); a skill's section index is
// built on first use. The catalog is immutable once loaded apart from that cache, which is
// guarded: share it between threads freely.
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "guidance/skill_front_matter.h"
#include "guidance/skill_sections.h"

namespace kl::guidance {

enum class SkillOrigin { Workspace, User, Bundled };  // precedence order

std::string_view origin_name(SkillOrigin origin);  // "workspace", "user", "bundled"

struct SkillFolder {
  std::filesystem::path path;  // the folder that holds skill folders
  SkillOrigin origin = SkillOrigin::Bundled;
};

// The folders to search, in precedence order. `home` empty: $HOME.
std::vector<SkillFolder> skill_search_folders(const std::vector<std::filesystem::path>& workspace_roots,
                                              std::filesystem::path home = {});

class Skill {
 public:
  Skill(std::filesystem::path folder, SkillOrigin origin, SkillFrontMatter front_matter, bool valid);

  const std::string& name() const { return front_matter_.name; }
  const std::string& description() const { return front_matter_.description; }
  const std::filesystem::path& folder() const { return folder_; }
  SkillOrigin origin() const { return origin_; }
  const SkillFrontMatter& front_matter() const { return front_matter_; }
  bool front_matter_valid() const { return valid_; }  // false: listed, but an agent may skip it
  // Built on first call (reads SKILL.md and references/); thread-safe.
  const SkillSectionIndex& sections() const;

 private:
  std::filesystem::path folder_;
  SkillOrigin origin_;
  SkillFrontMatter front_matter_;
  bool valid_;
  mutable std::once_flag sections_once_;
  mutable std::unique_ptr<SkillSectionIndex> sections_;
};

class SkillCatalog {
 public:
  static SkillCatalog load(const std::vector<SkillFolder>& folders);
  // The bundled folder, the workspace's and the user's (skill_search_folders).
  static SkillCatalog discover(const std::vector<std::filesystem::path>& workspace_roots);
  // The bundled skills folder (…/skills), when kernel-lsp can find its resources.
  static std::optional<std::filesystem::path> bundled_folder();

  // In precedence order; names may repeat across origins.
  const std::vector<std::shared_ptr<const Skill>>& skills() const { return skills_; }
  // The first skill of that name in precedence order; null when none.
  std::shared_ptr<const Skill> find(std::string_view name) const;
  // Every skill of that name, in precedence order.
  std::vector<std::shared_ptr<const Skill>> find_all(std::string_view name) const;

 private:
  std::vector<std::shared_ptr<const Skill>> skills_;
};

// The bundled skill that kernel-lsp's guidance comes from.
inline constexpr std::string_view kCudaKernelsSkill = "cuda-kernels";

}  // namespace kl::guidance
