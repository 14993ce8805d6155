#include "guidance/guidance_links.h"

#include <cctype>
#include <filesystem>
#include <system_error>

#include "analyzers/rules/rule_catalog.h"
#include "guidance/skill_catalog.h"
#include "guidance/skill_guidance.h"
#include "support/fs_paths.h"

namespace kl::guidance {
namespace {

namespace fs = std::filesystem;

// Every rule's page in the installed cuda-kernels skill, as a file: URI; rules whose page is
// missing are left out.
std::map<std::string, std::string, std::less<>> find_bundled_pages() {
  std::map<std::string, std::string, std::less<>> links;
  std::optional<fs::path> skills = SkillCatalog::bundled_folder();
  if (!skills) return links;
  // Absolute, so that the link works from wherever the editor or the SARIF viewer opens it
  // ($KERNEL_LSP_RESOURCE_DIR may be relative); symlinks are kept as the user made them.
  const fs::path skill = absolute_normal(*skills / kCudaKernelsSkill);
  for (const analyzers::Rule* rule : analyzers::rule_catalog()) {
    if (rule->guidance_page.empty()) continue;
    fs::path page = (skill / rule->guidance_page).lexically_normal();
    std::error_code ec;
    if (fs::is_regular_file(page, ec)) links.emplace(std::string(rule->id), file_uri(page));
  }
  return links;
}

void replace_all(std::string& text, std::string_view what, std::string_view with) {
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
}

bool is_template(std::string_view base) {
  return base.find("{page}") != std::string_view::npos || base.find("{id}") != std::string_view::npos;
}

}  // namespace

GuidanceLinks GuidanceLinks::bundled() {
  static const std::shared_ptr<const PageLinks> pages =
      std::make_shared<const PageLinks>(find_bundled_pages());
  GuidanceLinks links;
  links.bundled_ = pages;
  return links;
}

GuidanceLinks GuidanceLinks::under_base(std::string base) {
  GuidanceLinks links;
  if (!is_template(base))
    while (!base.empty() && base.back() == '/') base.pop_back();
  links.base_ = std::move(base);
  return links;
}

GuidanceLinks GuidanceLinks::for_setting(const std::string& docs_base_url) {
  return docs_base_url.empty() ? bundled() : under_base(docs_base_url);
}

std::string GuidanceLinks::help_uri_for(std::string_view rule_id) const {
  if (base_.empty()) {
    if (!bundled_) return {};
    auto it = bundled_->find(rule_id);
    return it == bundled_->end() ? std::string() : it->second;
  }
  const analyzers::Rule* rule = analyzers::find_rule(rule_id);
  if (!rule || rule->guidance_page.empty()) return {};
  if (!is_template(base_)) return base_ + "/" + std::string(rule->guidance_page);
  std::string link = base_;
  replace_all(link, "{page}", rule->guidance_page);
  replace_all(link, "{id}", rule->id);
  return link;
}

std::string docs_base_problem(std::string_view base) {
  const std::string quoted = "`" + std::string(base) + "`";
  if (base.empty()) return "the documentation base is empty";
  // RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ':'.
  size_t colon = base.find(':');
  bool scheme =
      colon != std::string_view::npos && colon > 0 && std::isalpha(static_cast<unsigned char>(base[0]));
  for (size_t i = 1; scheme && i < colon; ++i) {
    char c = base[i];
    scheme = std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  }
  if (!scheme || colon + 1 == base.size())
    return quoted + " is not an absolute URL: give its scheme, e.g. https://host/path or file:///path";
  for (char c : base)
    if (std::isspace(static_cast<unsigned char>(c)) || std::iscntrl(static_cast<unsigned char>(c)))
      return quoted + " contains a space or a control character: percent-encode it (%20)";
  // The only placeholders are {page} and {id}; anything else in braces is a typo that would
  // otherwise end up, braces and all, in every link.
  std::string rest(base);
  replace_all(rest, "{page}", "");
  replace_all(rest, "{id}", "");
  if (rest.find_first_of("{}") != std::string::npos)
    return quoted + " has a placeholder other than {page} and {id}";
  return {};
}

}  // namespace kl::guidance
