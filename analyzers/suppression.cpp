#include "analyzers/suppression.h"

#include <algorithm>

#include "support/line_index.h"

namespace kl::analyzers {
namespace {

struct IdInList {
  std::string id;
  size_t offset;  // in the list
};

std::vector<IdInList> split_ids(std::string_view list) {
  std::vector<IdInList> ids;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    size_t end = comma == std::string_view::npos ? list.size() : comma;
    size_t first = start, last = end;
    while (first < last && list[first] == ' ') ++first;
    while (last > first && list[last - 1] == ' ') --last;
    if (first < last) ids.push_back({std::string(list.substr(first, last - first)), first});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return ids;
}

}  // namespace

Suppressions::Suppressions(std::string_view text) {
  LineIndex lines(text);
  for (uint32_t line = 0; line < lines.line_count(); ++line) {
    std::string_view s = lines.line_text(line);
    size_t at = s.find("kernel-lsp:");
    while (at != std::string_view::npos) {
      std::string_view rest = s.substr(at + 11);
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      bool whole_file = rest.rfind("ignore-file[", 0) == 0;
      bool this_line = !whole_file && rest.rfind("ignore[", 0) == 0;
      if (whole_file || this_line) {
        size_t open = rest.find('[');
        size_t close = rest.find(']', open);
        if (close != std::string_view::npos) {
          size_t list_column = static_cast<size_t>(rest.data() - s.data()) + open + 1;
          for (auto& [id, offset] : split_ids(rest.substr(open + 1, close - open - 1))) {
            auto column = static_cast<uint32_t>(list_column + offset);
            written_.push_back({id, Range{{line, column}, {line, column + static_cast<uint32_t>(id.size())}}});
            if (whole_file) file_rules_.push_back(id);
            else line_rules_.push_back({line, id});
          }
        }
      }
      at = s.find("kernel-lsp:", at + 11);
    }
  }
}

bool Suppressions::suppresses(const Finding& finding) const {
  auto matches = [&](const std::string& rule) { return rule == "*" || rule == finding.rule_id; };
  if (std::any_of(file_rules_.begin(), file_rules_.end(), matches)) return true;
  uint32_t line = finding.location.range.start.line;
  return std::any_of(line_rules_.begin(), line_rules_.end(), [&](const LineRule& r) {
    return (r.line == line || r.line + 1 == line) && matches(r.rule);
  });
}

void apply_suppressions(std::string_view text, const std::string& file, std::vector<Finding>& findings) {
  apply_suppressions(Suppressions(text), file, findings);
}

void apply_suppressions(const Suppressions& suppressions, const std::string& file, std::vector<Finding>& findings) {
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding& f) { return f.location.file == file && suppressions.suppresses(f); }),
                 findings.end());
}

}  // namespace kl::analyzers
