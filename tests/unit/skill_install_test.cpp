// `kernel-lsp skills install` into a temporary $HOME and project folder: the right tree for
// --claude / --codex / --opencode, project and --global, --dest; scripts keep their execute
// bits; an existing different copy is refused without --force. Also `skills list|show|validate`
// through the real binary, and install_skill() itself.
#include "guidance/skill_install.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "support/fs_paths.h"
#include "support/process.h"

namespace guidance = kl::guidance;

namespace fs = std::filesystem;

namespace {

const fs::path kSource = KL_SOURCE_DIR;
const fs::path kSkill = kSource / "skills" / "cuda-kernels";

struct Sandbox {
  fs::path root, home, project;
  Sandbox() {
    static int counter = 0;
    root = fs::temp_directory_path() /
           ("kl-skill-install-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    fs::remove_all(root);
    home = root / "home";
    project = root / "project";
    fs::create_directories(home);
    fs::create_directories(project);
  }
  ~Sandbox() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

struct Run {
  int exit_code = -1;
  std::string out, err;
};

Run kernel_lsp(const Sandbox& box, std::vector<std::string> args) {
  REQUIRE(fs::exists(KL_BINARY));
  kl::ProcessRequest request;
  request.program = KL_BINARY;
  request.args = std::move(args);
  request.working_directory = box.project;
  request.extra_environment = {{"HOME", box.home.string()}, {"KERNEL_LSP_RESOURCE_DIR", kSource.string()}};
  request.timeout = std::chrono::seconds(60);
  auto outcome = kl::run_process(request);
  REQUIRE(outcome);
  return {outcome->exit_code, outcome->stdout_text, outcome->stderr_text};
}

bool executable(const fs::path& p) {
  return (fs::status(p).permissions() & fs::perms::owner_exec) != fs::perms::none;
}

void check_tree(const fs::path& installed) {
  INFO(installed.string());
  REQUIRE(fs::is_regular_file(installed / "SKILL.md"));
  CHECK(fs::is_regular_file(installed / "references" / "constructs.md"));
  CHECK(fs::is_regular_file(installed / "references" / "rules" / "smem-limit.md"));
  CHECK(fs::is_regular_file(installed / "scripts" / "check_build_toml.py"));
  CHECK(executable(installed / "scripts" / "check_build_toml.py"));
  CHECK(executable(installed / "scripts" / "new_kernel_project.sh"));
  CHECK(kl::guidance::same_tree(kSkill, installed));
}

}  // namespace

TEST_CASE("install: project folders for each agent, relative to the working directory") {
  Sandbox box;
  Run claude = kernel_lsp(box, {"skills", "install"});  // claude is the default
  INFO(claude.out << claude.err);
  REQUIRE(claude.exit_code == 0);
  check_tree(box.project / ".claude" / "skills" / "cuda-kernels");
  Run codex = kernel_lsp(box, {"skills", "install", "--codex"});
  REQUIRE(codex.exit_code == 0);
  check_tree(box.project / ".codex" / "skills" / "cuda-kernels");
  Run opencode = kernel_lsp(box, {"skills", "install", "--opencode", "--skill", "cuda-kernels"});
  REQUIRE(opencode.exit_code == 0);
  check_tree(box.project / ".opencode" / "skills" / "cuda-kernels");
  CHECK_FALSE(fs::exists(box.home / ".claude"));  // nothing global
}

TEST_CASE("install --global: the user's agent folders under $HOME") {
  Sandbox box;
  Run run = kernel_lsp(box, {"skills", "install", "--global", "--claude", "--codex", "--opencode"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  check_tree(box.home / ".claude" / "skills" / "cuda-kernels");
  check_tree(box.home / ".codex" / "skills" / "cuda-kernels");
  check_tree(box.home / ".config" / "opencode" / "skills" / "cuda-kernels");
  CHECK_FALSE(fs::exists(box.project / ".claude"));
}

TEST_CASE("install --dest DIR puts the skill in DIR/<name>") {
  Sandbox box;
  Run run = kernel_lsp(box, {"skills", "install", "--dest", (box.root / "custom").string()});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  check_tree(box.root / "custom" / "cuda-kernels");
}

TEST_CASE("install refuses to overwrite a different copy without --force") {
  Sandbox box;
  REQUIRE(kernel_lsp(box, {"skills", "install"}).exit_code == 0);
  const fs::path installed = box.project / ".claude" / "skills" / "cuda-kernels";

  Run again = kernel_lsp(box, {"skills", "install"});  // identical: nothing to do
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("up to date") != std::string::npos);

  {
    std::ofstream(installed / "SKILL.md", std::ios::app) << "\nA local edit.\n";
  }
  Run refused = kernel_lsp(box, {"skills", "install"});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("--force") != std::string::npos);
  CHECK(kl::read_file_text(installed / "SKILL.md")->find("A local edit.") != std::string::npos);  // untouched

  {
    std::ofstream(installed / "references" / "stale.md") << "# Stale\n";
  }
  Run forced = kernel_lsp(box, {"skills", "install", "--force"});
  INFO(forced.out << forced.err);
  CHECK(forced.exit_code == 0);
  CHECK(forced.out.find("replaced") != std::string::npos);
  check_tree(installed);
  CHECK_FALSE(fs::exists(installed / "references" / "stale.md"));
}

TEST_CASE("install of an unknown skill fails clearly") {
  Sandbox box;
  Run run = kernel_lsp(box, {"skills", "install", "--skill", "no-such-skill"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("no-such-skill") != std::string::npos);
}

TEST_CASE("list shows bundled, workspace and user skills") {
  Sandbox box;
  REQUIRE(kernel_lsp(box, {"skills", "install", "--global", "--codex"}).exit_code == 0);
  Run list = kernel_lsp(box, {"skills", "list"});
  INFO(list.out << list.err);
  REQUIRE(list.exit_code == 0);
  CHECK(list.out.find("cuda-kernels  [user]  " +
                      (box.home / ".codex" / "skills" / "cuda-kernels").string()) != std::string::npos);
  CHECK(list.out.find("[bundled]") != std::string::npos);
  CHECK(list.out.find("Write, check, build and benchmark CUDA kernels") != std::string::npos);
  Run json = kernel_lsp(box, {"skills", "list", "--json"});
  CHECK(json.exit_code == 0);
  CHECK(json.out.find("\"origin\": \"user\"") != std::string::npos);
}

TEST_CASE("show prints SKILL.md or one section") {
  Sandbox box;
  Run whole = kernel_lsp(box, {"skills", "show", "cuda-kernels"});
  REQUIRE(whole.exit_code == 0);
  CHECK(whole.out.rfind("---\nname: cuda-kernels", 0) == 0);
  Run section = kernel_lsp(box, {"skills", "show", "cuda-kernels", "warp", "shuffles"});
  INFO(section.err);
  REQUIRE(section.exit_code == 0);
  CHECK(section.out.rfind("### Warp shuffles", 0) == 0);
  Run construct = kernel_lsp(box, {"skills", "show", "cuda-kernels", "cp.async"});
  REQUIRE(construct.exit_code == 0);
  CHECK(construct.out.rfind("### cp.async", 0) == 0);
  Run rule = kernel_lsp(box, {"skills", "show", "cuda-kernels", "smem-limit"});
  REQUIRE(rule.exit_code == 0);
  CHECK(rule.out.rfind("# smem-limit", 0) == 0);
  Run missing = kernel_lsp(box, {"skills", "show", "cuda-kernels", "zzzz", "nothing"});
  CHECK(missing.exit_code == 1);
  CHECK(kernel_lsp(box, {"skills", "show", "no-such-skill"}).exit_code == 1);
}

TEST_CASE("validate prints file:line:col lines and exits 1 on errors") {
  Sandbox box;
  Run valid = kernel_lsp(box, {"skills", "validate", kSkill.string()});
  INFO(valid.out << valid.err);
  CHECK(valid.exit_code == 0);
  CHECK(valid.out.empty());
  const fs::path broken = fs::path(KL_FIXTURES_DIR) / "skills" / "name-mismatch";
  Run invalid = kernel_lsp(box, {"skills", "validate", broken.string()});
  CHECK(invalid.exit_code == 1);
  CHECK(invalid.out.rfind((broken / "SKILL.md").string() + ":2:7: error: `name` is `other-name`", 0) == 0);
  Run warning_only =
      kernel_lsp(box, {"skills", "validate", (fs::path(KL_FIXTURES_DIR) / "skills" / "long-body").string()});
  CHECK(warning_only.exit_code == 0);
  CHECK(warning_only.out.find(":505:1: warning:") != std::string::npos);
}

TEST_CASE("install_skill: errors are values, nothing changes on refusal") {
  Sandbox box;
  const fs::path target = box.root / "t" / "cuda-kernels";
  auto first = kl::guidance::install_skill(kSkill, target, false);
  REQUIRE(first);
  CHECK(first->outcome == kl::guidance::InstallOutcome::Installed);
  CHECK(first->files > 10);
  auto second = kl::guidance::install_skill(kSkill, target, false);
  REQUIRE(second);
  CHECK(second->outcome == kl::guidance::InstallOutcome::UpToDate);
  auto not_a_skill = kl::guidance::install_skill(box.root, box.root / "x", false);
  CHECK_FALSE(not_a_skill);
  CHECK(kl::guidance::agent_skills_folder(kl::guidance::SkillAgent::OpenCode, true, "/p", "/h") ==
        "/h/.config/opencode/skills");
  CHECK(kl::guidance::agent_skills_folder(kl::guidance::SkillAgent::OpenCode, false, "/p", "/h") ==
        "/p/.opencode/skills");
  CHECK(kl::guidance::agent_skills_folder(kl::guidance::SkillAgent::Codex, true, "/p", "/h") == "/h/.codex/skills");
}
