#include "cli/skills_command.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "guidance/skill_catalog.h"
#include "guidance/skill_guidance.h"
#include "guidance/skill_install.h"
#include "guidance/skill_validation.h"
#include "support/fs_paths.h"

namespace kl::cli {
namespace {

namespace fs = std::filesystem;

struct SkillsOptions {
  bool json = false;
  std::string name;
  std::vector<std::string> section;  // words of SECTION (quotes optional)
  std::string validate_path;
  bool claude = false, codex = false, opencode = false, global = false, force = false;
  std::string dest;
  std::string skill = std::string(guidance::kCudaKernelsSkill);
};

fs::path current_directory() {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  return ec ? fs::path(".") : cwd;
}

std::string one_line(const std::string& text, size_t limit) {
  std::string out;
  for (char c : text) out += (c == '\n' || c == '\t') ? ' ' : c;
  if (out.size() > limit) {
    size_t cut = out.rfind(' ', limit);
    out = out.substr(0, cut == std::string::npos || cut < limit / 2 ? limit : cut) + " …";
  }
  return out;
}

int run_list(const SkillsOptions& options) {
  guidance::SkillCatalog catalog = guidance::SkillCatalog::discover({current_directory()});
  if (options.json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& skill : catalog.skills())
      list.push_back({{"name", skill->name()},
                      {"description", skill->description()},
                      {"origin", std::string(guidance::origin_name(skill->origin()))},
                      {"folder", skill->folder().string()},
                      {"valid", skill->front_matter_valid()}});
    std::cout << list.dump(2) << "\n";
    return 0;
  }
  if (catalog.skills().empty()) {
    std::cout << "no skills found (bundled skills folder missing? set KERNEL_LSP_RESOURCE_DIR)\n";
    return 0;
  }
  for (const auto& skill : catalog.skills()) {
    std::cout << skill->name() << "  [" << guidance::origin_name(skill->origin()) << "]  "
              << skill->folder().string()
              << (skill->front_matter_valid() ? "" : "  (invalid: run `kernel-lsp skills validate`)") << "\n";
    std::cout << "    " << one_line(skill->description(), 160) << "\n";
  }
  return 0;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

int run_show(const SkillsOptions& options) {
  guidance::SkillCatalog catalog = guidance::SkillCatalog::discover({current_directory()});
  std::shared_ptr<const guidance::Skill> skill = catalog.find(options.name);
  if (!skill) {
    std::cerr << "kernel-lsp: no skill named `" << options.name << "` (see `kernel-lsp skills list`)\n";
    return 1;
  }
  if (options.section.empty()) {
    auto text = read_file_text(skill->folder() / "SKILL.md");
    if (!text) {
      std::cerr << "kernel-lsp: cannot read " << (skill->folder() / "SKILL.md").string() << "\n";
      return 2;
    }
    std::cout << *text;
    return 0;
  }
  const std::string wanted = join(options.section);
  const guidance::SkillSectionIndex& index = skill->sections();
  const guidance::SkillSection* section = index.find_heading(wanted);
  if (!section) section = index.find_rule(wanted);
  if (!section)
    if (const guidance::Construct* construct = guidance::ConstructTable::bundled().find(wanted))
      section = index.find_heading(construct->heading, construct->file);
  if (!section) {
    std::cerr << "kernel-lsp: `" << skill->name() << "` has no section `" << wanted << "`";
    auto close = index.search(wanted, 5);
    if (!close.empty()) {
      std::cerr << "; closest:\n";
      for (const auto* s : close)
        std::cerr << "  " << s->heading << "  (" << s->file << ":" << s->first_line + 1 << ")\n";
    } else {
      std::cerr << "\n";
    }
    return 1;
  }
  std::cout << section->text;
  std::cerr << "(" << section->file << ":" << section->first_line + 1 << ")\n";
  return 0;
}

int run_validate(const SkillsOptions& options) {
  fs::path folder = options.validate_path;
  std::error_code ec;
  if (folder.filename() == "SKILL.md") folder = folder.parent_path();
  if (!fs::exists(folder, ec)) {
    std::cerr << "kernel-lsp: " << options.validate_path << " does not exist\n";
    return 2;
  }
  std::vector<analyzers::Finding> findings =
      guidance::validate_skill_folder(folder.empty() ? fs::path(".") : folder);
  size_t errors = 0, warnings = 0;
  for (const auto& f : findings) {
    std::cout << f.location.file << ":" << f.location.range.start.line + 1 << ":"
              << f.location.range.start.column + 1 << ": " << analyzers::severity_name(f.severity) << ": "
              << f.message << " [" << f.rule_id << "]\n";
    (f.severity == analyzers::Severity::Error ? errors : warnings)++;
  }
  if (errors)
    std::cerr << options.validate_path << ": " << errors << " error(s), " << warnings << " warning(s)\n";
  else
    std::cerr << options.validate_path << ": valid"
              << (warnings ? " (" + std::to_string(warnings) + " warning(s))" : "") << "\n";
  return errors ? 1 : 0;
}

// The bundled skill called `name` (by front matter name, or by folder).
std::optional<fs::path> bundled_skill(const std::string& name) {
  auto root = guidance::SkillCatalog::bundled_folder();
  if (!root) return std::nullopt;
  guidance::SkillCatalog catalog = guidance::SkillCatalog::load({{*root, guidance::SkillOrigin::Bundled}});
  if (auto skill = catalog.find(name)) return skill->folder();
  std::error_code ec;
  if (fs::is_regular_file(*root / name / "SKILL.md", ec)) return *root / name;
  return std::nullopt;
}

int run_install(const SkillsOptions& options) {
  std::optional<fs::path> source = bundled_skill(options.skill);
  if (!source) {
    std::cerr << "kernel-lsp: no bundled skill named `" << options.skill
              << "` (set KERNEL_LSP_RESOURCE_DIR if kernel-lsp was moved without its share/ folder)\n";
    return 2;
  }
  std::vector<fs::path> destinations;
  if (!options.dest.empty()) {
    destinations.push_back(fs::path(options.dest) / options.skill);
  } else {
    fs::path home;
    if (const char* env = std::getenv("HOME"); env && *env) home = env;
    if (options.global && home.empty()) {
      std::cerr << "kernel-lsp: --global needs $HOME\n";
      return 2;
    }
    std::vector<guidance::SkillAgent> agents;
    if (options.claude) agents.push_back(guidance::SkillAgent::Claude);
    if (options.codex) agents.push_back(guidance::SkillAgent::Codex);
    if (options.opencode) agents.push_back(guidance::SkillAgent::OpenCode);
    if (agents.empty()) agents.push_back(guidance::SkillAgent::Claude);
    // Project installs stay relative so the message shows what lands in the repository.
    for (auto agent : agents)
      destinations.push_back(
          guidance::agent_skills_folder(agent, options.global, options.global ? home : fs::path(), home) /
          options.skill);
  }
  int status = 0;
  for (const auto& destination : destinations) {
    auto report = guidance::install_skill(*source, destination, options.force);
    if (!report) {
      std::cerr << "kernel-lsp: " << report.error().describe() << "\n";
      status = 1;
      continue;
    }
    switch (report->outcome) {
      case guidance::InstallOutcome::Installed:
        std::cout << "installed " << options.skill << " to " << destination.string() << " (" << report->files
                  << " files)\n";
        break;
      case guidance::InstallOutcome::Replaced:
        std::cout << "replaced " << destination.string() << " with " << options.skill << " (" << report->files
                  << " files)\n";
        break;
      case guidance::InstallOutcome::UpToDate:
        std::cout << destination.string() << " is up to date\n";
        break;
    }
  }
  return status;
}

}  // namespace

RegisteredCommand add_skills_command(CLI::App& app) {
  auto options = std::make_shared<SkillsOptions>();
  CLI::App* skills =
      app.add_subcommand("skills", "List, show, validate and install agent skills (cuda-kernels)");
  skills->require_subcommand(1);

  CLI::App* list =
      skills->add_subcommand("list", "Skills found: bundled, this folder's, and your agents' folders");
  list->add_flag("--json", options->json, "Print JSON");

  CLI::App* show = skills->add_subcommand("show", "Print a skill's SKILL.md, or one section of it");
  show->add_option("name", options->name, "Skill name, e.g. cuda-kernels")->required();
  show->add_option("section", options->section,
                   "Section heading (case-insensitive prefix), construct (__shfl_xor_sync) or rule id");

  CLI::App* validate =
      skills->add_subcommand("validate", "Check a skill folder against the Agent Skills format");
  validate->add_option("dir", options->validate_path, "The skill's folder (or its SKILL.md)")->required();

  CLI::App* install = skills->add_subcommand("install", "Copy a bundled skill where an agent looks for it");
  install->add_flag("--claude", options->claude,
                    "Claude Code: .claude/skills (with --global: ~/.claude/skills); the default");
  install->add_flag("--codex", options->codex, "Codex: .codex/skills (with --global: ~/.codex/skills)");
  install->add_flag("--opencode", options->opencode,
                    "OpenCode: .opencode/skills (with --global: ~/.config/opencode/skills)");
  install->add_flag("--global", options->global, "Install for the user ($HOME) instead of this project");
  install->add_option("--dest", options->dest,
                      "Install into DIR/<skill> instead (overrides the agent flags)");
  install->add_flag("--force", options->force, "Replace an existing copy that differs");
  install->add_option("--skill", options->skill, "Which bundled skill (default: cuda-kernels)");

  return {skills, [options, list, show, validate, install]() {
            if (list->parsed()) return run_list(*options);
            if (show->parsed()) return run_show(*options);
            if (validate->parsed()) return run_validate(*options);
            if (install->parsed()) return run_install(*options);
            return 2;
          }};
}

}  // namespace kl::cli
