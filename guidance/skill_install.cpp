#include "guidance/skill_install.h"

#include <unistd.h>

#include <map>

#include "support/fs_paths.h"

namespace kl::guidance {
namespace {

namespace fs = std::filesystem;

// Byproducts of running the scripts, not part of the skill.
bool skipped(const fs::path& path) {
  const std::string name = path.filename().string();
  return name == "__pycache__" || name == ".DS_Store" || path.extension() == ".pyc";
}

// Relative path → absolute path of every regular file under `root`.
std::map<std::string, fs::path> files_under(const fs::path& root) {
  std::map<std::string, fs::path> files;
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(root, fs::directory_options::follow_directory_symlink, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (skipped(it->path())) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files[it->path().lexically_relative(root).generic_string()] = it->path();
  }
  return files;
}

Result<size_t> copy_tree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  if (ec) return make_error("cannot create " + to.string() + ": " + ec.message());
  size_t count = 0;
  for (const auto& [relative, source] : files_under(from)) {
    fs::path target = to / relative;
    fs::create_directories(target.parent_path(), ec);
    if (ec) return make_error("cannot create " + target.parent_path().string() + ": " + ec.message());
    fs::copy_file(source, target, fs::copy_options::overwrite_existing, ec);
    if (ec)
      return make_error("cannot copy " + source.string() + " to " + target.string() + ": " + ec.message());
    // Scripts must stay executable: agents run them as ./scripts/x.sh.
    fs::permissions(target, fs::status(source).permissions(), fs::perm_options::replace, ec);
    if (ec) return make_error("cannot set permissions of " + target.string() + ": " + ec.message());
    ++count;
  }
  return count;
}

}  // namespace

fs::path agent_skills_folder(SkillAgent agent, bool global, const fs::path& working_directory,
                             const fs::path& home) {
  switch (agent) {
    case SkillAgent::Claude:
      return (global ? home : working_directory) / ".claude" / "skills";
    case SkillAgent::Codex:
      return (global ? home : working_directory) / ".codex" / "skills";
    case SkillAgent::OpenCode:
      return global ? home / ".config" / "opencode" / "skills" : working_directory / ".opencode" / "skills";
  }
  return working_directory / ".claude" / "skills";
}

bool same_tree(const fs::path& a, const fs::path& b) {
  auto left = files_under(a);
  auto right = files_under(b);
  if (left.size() != right.size()) return false;
  for (const auto& [relative, path] : left) {
    auto other = right.find(relative);
    if (other == right.end()) return false;
    auto x = read_file_text(path);
    auto y = read_file_text(other->second);
    if (!x || !y || *x != *y) return false;
  }
  return true;
}

Result<InstallReport> install_skill(const fs::path& skill_folder, const fs::path& destination, bool force) {
  std::error_code ec;
  if (!fs::is_regular_file(skill_folder / "SKILL.md", ec))
    return make_error(skill_folder.string() + " is not a skill (no SKILL.md)");
  InstallReport report;
  report.destination = destination;
  if (fs::exists(destination, ec)) {
    if (!fs::is_directory(destination, ec))
      return make_error(destination.string() + " exists and is not a folder; remove it first");
    if (same_tree(skill_folder, destination)) {
      report.outcome = InstallOutcome::UpToDate;
      report.files = files_under(destination).size();
      return report;
    }
    if (!force)
      return make_error(destination.string() +
                        " already holds a different copy of the skill (edited, or from another version); "
                        "use --force to replace it");
    // Copy beside it first, so a failed copy leaves the old one in place.
    fs::path staging = destination;
    staging += ".kernel-lsp-" + std::to_string(::getpid());
    fs::remove_all(staging, ec);
    auto copied = copy_tree(skill_folder, staging);
    if (!copied) {
      fs::remove_all(staging, ec);
      return copied.error();
    }
    fs::remove_all(destination, ec);
    if (ec) return make_error("cannot remove " + destination.string() + ": " + ec.message());
    fs::rename(staging, destination, ec);
    if (ec)
      return make_error("cannot move " + staging.string() + " to " + destination.string() + ": " +
                        ec.message());
    report.outcome = InstallOutcome::Replaced;
    report.files = *copied;
    return report;
  }
  auto copied = copy_tree(skill_folder, destination);
  if (!copied) return copied.error();
  report.outcome = InstallOutcome::Installed;
  report.files = *copied;
  return report;
}

}  // namespace kl::guidance
