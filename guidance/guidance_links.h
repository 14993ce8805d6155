#pragma once
// Where a finding's "more about this" link points: LSP's codeDescription.href, SARIF's helpUri,
// the JSON report's help_uri. The link is formed at the edge (the CLI's reports, the server's
// diagnostics) from the finding's rule id, so that analyses, their cache and the worker protocol
// carry no addresses, and a link always says where *this* installation keeps its pages:
//
//  - bundled (the default): a file: URI of the rule's page in the installed skill,
//    <resource root>/skills/cuda-kernels/<guidance_page>, the resource root found as every
//    resource is ($KERNEL_LSP_RESOURCE_DIR, <exe>/../share/kernel-lsp, the source tree). A page
//    that is not there gets no link: never one that leads nowhere.
//  - a documentation base the user configured (server setting docsBaseUrl, `lint
//    --docs-base-url`): the URL of a published copy of the skill's folder, and the link is
//    <base>/<guidance_page> (…/references/rules/arch-mismatch.md). A base that holds `{page}` or
//    `{id}` is a template instead, each replaced by the page's path or the rule id
//    (https://wiki.example.org/kernel-lsp/{id}.html).
//
// Findings of the `skill` check (a SKILL.md against the Agent Skills format) link to their page
// like every rule's (it cites the format's public specification); ids that name no rule get no
// link.
// Immutable value; copy it and use it from any thread.
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace kl::guidance {

class GuidanceLinks {
 public:
  // file: URIs of the installed pages; the pages are looked up once per process.
  static GuidanceLinks bundled();
  // Links under a documentation base (see docs_base_problem for what is accepted).
  static GuidanceLinks under_base(std::string base);
  // bundled() for an empty setting, else under_base(setting).
  static GuidanceLinks for_setting(const std::string& docs_base_url);

  // The link for a finding of `rule_id`; empty when there is no page to link to.
  std::string help_uri_for(std::string_view rule_id) const;
  // The configured base; empty for bundled links.
  const std::string& base() const { return base_; }

 private:
  using PageLinks = std::map<std::string, std::string, std::less<>>;  // rule id → file: URI
  std::string base_;
  std::shared_ptr<const PageLinks> bundled_;
};

// Empty when `base` can serve as a documentation base; else what is wrong with it, for the user
// ("`docs` is not an absolute URL: give a scheme, e.g. https://… or file:///…").
std::string docs_base_problem(std::string_view base);

}  // namespace kl::guidance
