#include "cli/header_findings.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>

namespace kl::cli {

namespace {

// The message without the rules' closing "(in kernel and N more)": two includers reach the same
// helper from different kernels, and that is still one problem at the header.
std::string without_kernel_list(const std::string& message) {
  size_t at = message.rfind(" (in ");
  if (at == std::string::npos || message.empty() || message.back() != ')') return message;
  return message.substr(0, at);
}

}  // namespace

size_t report_shared_findings_once(std::vector<FileResult>& results) {
  using Key = std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t, std::string, std::string>;
  std::map<Key, std::pair<size_t, size_t>> first;  // where each kept finding is: result, index
  size_t dropped = 0;
  for (size_t ri = 0; ri < results.size(); ++ri) {
    std::vector<analyzers::Finding> kept;
    kept.reserve(results[ri].findings.size());
    for (auto& f : results[ri].findings) {
      const analyzers::Range& r = f.location.range;
      std::string file = f.location.file.empty() ? std::string()
                                                 : std::filesystem::path(f.location.file).lexically_normal().string();
      Key key{file, r.start.line, r.start.column, r.end.line, r.end.column, f.rule_id, without_kernel_list(f.message)};
      // Only placed findings can repeat across files; a file-level note stays with its file.
      auto [it, fresh] = first.try_emplace(key, ri, kept.size());
      if (file.empty() || fresh) {
        kept.push_back(std::move(f));
        continue;
      }
      // The same problem seen again: keep the call sites it was reached from, once each.
      auto& [keep_ri, keep_index] = it->second;
      analyzers::Finding& original = keep_ri == ri ? kept[keep_index] : results[keep_ri].findings[keep_index];
      for (auto& note : f.notes) {
        bool known = std::any_of(original.notes.begin(), original.notes.end(), [&](const analyzers::RelatedNote& n) {
          return n.location.file == note.location.file && n.location.range.start.line == note.location.range.start.line &&
                 n.message == note.message;
        });
        if (!known) original.notes.push_back(std::move(note));
      }
      ++dropped;
    }
    results[ri].findings = std::move(kept);
  }
  return dropped;
}

}  // namespace kl::cli
