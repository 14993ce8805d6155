#pragma once
// Suppression comments (the README shows them to users; docs/ARCHITECTURE.md places this file):
//   // kernel-lsp: ignore[<id>]        on the finding's line or the line above
//   // kernel-lsp: ignore-file[<id>]   anywhere in the file
// Several ids may be listed, comma separated; `*` means every rule. In build.toml the same
// words follow `#`.
#include <string_view>
#include <vector>

#include "analyzers/finding.h"

namespace kl::analyzers {

class Suppressions {
 public:
  // One id as written in a comment: where it stands (0-based line, UTF-8 byte columns), so
  // that an id that names no rule can be reported on it.
  struct WrittenId {
    std::string id;
    Range range;
  };

  explicit Suppressions(std::string_view text);
  bool suppresses(const Finding& finding) const;
  // Every id the comments name, `*` included, in text order.
  const std::vector<WrittenId>& written_ids() const { return written_; }

 private:
  struct LineRule {
    uint32_t line;
    std::string rule;
  };
  std::vector<LineRule> line_rules_;
  std::vector<std::string> file_rules_;
  std::vector<WrittenId> written_;
};

// Removes the findings in `file` that its text suppresses.
void apply_suppressions(std::string_view text, const std::string& file, std::vector<Finding>& findings);
// The same with the comments already read.
void apply_suppressions(const Suppressions& suppressions, const std::string& file, std::vector<Finding>& findings);

}  // namespace kl::analyzers
