#include "analyzers/pipeline/configuration_memory.h"

#include <algorithm>
#include <cctype>

namespace kl::analyzers {

namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// [begin, end) widened to whole lines.
std::string_view lines_around(std::string_view text, size_t begin, size_t end) {
  size_t first = text.rfind('\n', begin == 0 ? 0 : begin - 1);
  first = (first == std::string_view::npos || begin == 0) ? 0 : first + 1;
  size_t last = text.find('\n', end);
  if (last == std::string_view::npos) last = text.size();
  return text.substr(first, last - first);
}

// No directive and no line continuation on these lines: no event can start or end in them.
bool free_of_directives(std::string_view lines) {
  return lines.find('#') == std::string_view::npos && lines.find("%:") == std::string_view::npos &&
         lines.find('\\') == std::string_view::npos;
}

// No comment or literal starts or ends in the changed text (nor next to it, for `/`, which
// makes `//` or `/*` with a neighbour).
bool free_of_delimiters(std::string_view text, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i)
    if (text[i] == '"' || text[i] == '\'' || text[i] == '/') return false;
  // A `*` written or uncovered next to a `/` would open or close a block comment.
  return !(begin > 0 && text[begin - 1] == '/') && !(end < text.size() && text[end] == '/');
}

// The identifiers that overlap [begin, end) of `text`, the range widened to whole words.
std::vector<std::string_view> touched_identifiers(std::string_view text, size_t begin, size_t end) {
  while (begin > 0 && is_identifier_char(text[begin - 1])) --begin;
  while (end < text.size() && is_identifier_char(text[end])) ++end;
  std::vector<std::string_view> words;
  size_t at = begin;
  while (at < end) {
    if (!is_identifier_char(text[at])) {
      ++at;
      continue;
    }
    size_t start = at;
    while (at < end && is_identifier_char(text[at])) ++at;
    if (!std::isdigit(static_cast<unsigned char>(text[start]))) words.push_back(text.substr(start, at - start));
  }
  return words;
}

bool names_no_macro(std::string_view text, size_t begin, size_t end, const MacroNames& macro_names) {
  for (std::string_view word : touched_identifiers(text, begin, end))
    if (macro_names.count(std::string(word))) return false;
  return true;
}

// What an edit replaced: [prefix, before_end) of the text before by [prefix, after_end) after.
struct Edit {
  size_t prefix = 0, before_end = 0, after_end = 0;
};

Edit edit_between(std::string_view before, std::string_view after) {
  size_t prefix = 0;
  while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < before.size() - prefix && suffix < after.size() - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
    ++suffix;
  return {prefix, before.size() - suffix, after.size() - suffix};
}

}  // namespace

bool edit_keeps_configurations(std::string_view before, std::string_view after,
                               const MacroNames& macro_names) {
  if (before == after) return true;
  const auto [prefix, before_end, after_end] = edit_between(before, after);
  return free_of_directives(lines_around(before, prefix, before_end)) &&
         free_of_directives(lines_around(after, prefix, after_end)) &&
         free_of_delimiters(before, prefix, before_end) && free_of_delimiters(after, prefix, after_end) &&
         names_no_macro(before, prefix, before_end, macro_names) &&
         names_no_macro(after, prefix, after_end, macro_names);
}

std::vector<ConfigurationEvents> events_after_edit(const ConfigurationMemory& memory, std::string_view text) {
  const Edit edit = edit_between(memory.text, text);
  // No event starts or ends in the edited lines (see the header): each offset is before the edit
  // or at or after its end.
  auto moved = [&](uint32_t offset) {
    return offset >= edit.before_end ? static_cast<uint32_t>(offset - edit.before_end + edit.after_end)
                                     : offset;
  };
  std::vector<ConfigurationEvents> events = memory.events;
  for (ConfigurationEvents& configuration : events)
    for (ConfigurationEvent& event : configuration) {
      if (!event.in_main_file || (event.begin == 0 && event.end == 0))
        continue;  // a header's, or the preamble
      event.begin = moved(event.begin);
      event.end = moved(event.end);
      if (event.definition != ConfigurationEvent::kNone) event.definition = moved(event.definition);
    }
  return events;
}

std::vector<ConfigurationMemory::Stamp> stamps_of(const std::vector<std::string>& files) {
  std::vector<ConfigurationMemory::Stamp> stamps;
  stamps.reserve(files.size());
  for (const auto& file : files) stamps.push_back({file, file_stamp(file)});
  return stamps;
}

std::optional<std::vector<size_t>> known_configurations(const ConfigurationMemory& memory, std::string_view text,
                                                        const std::vector<std::string>& command,
                                                        const std::vector<Capability>& archs) {
  if (memory.command != command || memory.archs != archs || memory.configuration.size() + 1 != archs.size())
    return std::nullopt;
  for (const auto& input : memory.inputs)
    if (file_stamp(input.path) != input.stamp) return std::nullopt;
  if (!edit_keeps_configurations(memory.text, text, memory.macro_names)) return std::nullopt;
  return memory.configuration;
}

}  // namespace kl::analyzers
