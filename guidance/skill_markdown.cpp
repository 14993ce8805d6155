#include "guidance/skill_markdown.h"

#include <cmark.h>

#include <map>
#include <memory>
#include <optional>

namespace kl::guidance {
namespace {

struct NodeDeleter {
  void operator()(cmark_node* node) const { cmark_node_free(node); }
};
struct IterDeleter {
  void operator()(cmark_iter* iter) const { cmark_iter_free(iter); }
};

bool is_block(cmark_node* node) {
  cmark_node_type type = cmark_node_get_type(node);
  return type >= CMARK_NODE_FIRST_BLOCK && type <= CMARK_NODE_LAST_BLOCK;
}

// Plain text of a heading's inline content.
std::string inline_text(cmark_node* node) {
  std::string text;
  for (cmark_node* child = cmark_node_first_child(node); child; child = cmark_node_next(child)) {
    switch (cmark_node_get_type(child)) {
      case CMARK_NODE_TEXT:
      case CMARK_NODE_CODE:
      case CMARK_NODE_HTML_INLINE:
        if (const char* literal = cmark_node_get_literal(child)) text += literal;
        break;
      case CMARK_NODE_SOFTBREAK:
      case CMARK_NODE_LINEBREAK:
        text += ' ';
        break;
      default:
        text += inline_text(child);
    }
  }
  return text;
}

// cmark keeps no position for a link's destination, so find it in the source lines of the
// block that holds the link, after the previous destination found in that block (the same
// URL twice in a paragraph maps to two places). Destinations are written after "(" or "<" or,
// in a reference definition, after "]:".
std::optional<std::pair<uint32_t, uint32_t>> locate(const std::vector<std::string_view>& lines,
                                                    const std::string& destination, uint32_t first,
                                                    uint32_t last, std::pair<uint32_t, uint32_t> from) {
  for (uint32_t line = std::max(first, from.first); line <= last && line < lines.size(); ++line) {
    std::string_view text = lines[line];
    size_t start = line == from.first ? from.second : 0;
    for (size_t at = text.find(destination, start); at != std::string_view::npos;
         at = text.find(destination, at + 1)) {
      if (at == 0) continue;
      char before = text[at - 1];
      if (before == '(' || before == '<' || before == ' ' || before == '\t')
        return std::make_pair(line, static_cast<uint32_t>(at));
    }
  }
  return std::nullopt;
}

// An ATX heading's text as written: `### __launch_bounds__` must stay `__launch_bounds__`,
// which CommonMark's inline parse would turn into strong emphasis around "launch_bounds".
std::optional<std::string> atx_heading_text(std::string_view line) {
  size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos || start > 3 || line[start] != '#') return std::nullopt;
  line.remove_prefix(start);
  while (!line.empty() && line.front() == '#') line.remove_prefix(1);
  auto trim = [](std::string_view& t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  };
  trim(line);
  // An optional closing sequence: spaces, then only '#'s.
  size_t hashes = line.find_last_not_of('#');
  if (hashes == std::string_view::npos) return std::string();
  if (hashes + 1 < line.size() && (line[hashes] == ' ' || line[hashes] == '\t')) {
    line = line.substr(0, hashes + 1);
    trim(line);
  }
  return std::string(line);
}

}  // namespace

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

MarkdownOutline outline_markdown(std::string_view text, uint32_t first_line) {
  MarkdownOutline outline;
  std::vector<std::string_view> lines = split_lines(text);
  outline.line_count = static_cast<uint32_t>(lines.size());

  // Front matter lines become empty lines: cmark would read `---` as a rule and the YAML under
  // it as a setext heading.
  std::string markdown;
  markdown.reserve(text.size());
  for (uint32_t i = 0; i < lines.size(); ++i) {
    if (i >= first_line) markdown += lines[i];
    markdown += '\n';
  }

  std::unique_ptr<cmark_node, NodeDeleter> document(
      cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT));
  if (!document) return outline;
  std::unique_ptr<cmark_iter, IterDeleter> iter(cmark_iter_new(document.get()));
  std::map<cmark_node*, std::pair<uint32_t, uint32_t>> search_from;  // per block
  cmark_event_type event;
  while ((event = cmark_iter_next(iter.get())) != CMARK_EVENT_DONE) {
    if (event != CMARK_EVENT_ENTER) continue;
    cmark_node* node = cmark_iter_get_node(iter.get());
    cmark_node_type type = cmark_node_get_type(node);
    if (type == CMARK_NODE_HEADING) {
      MarkdownHeading heading;
      heading.level = cmark_node_get_heading_level(node);
      heading.line = static_cast<uint32_t>(std::max(1, cmark_node_get_start_line(node)) - 1);
      std::optional<std::string> atx =
          heading.line < lines.size() ? atx_heading_text(lines[heading.line]) : std::nullopt;
      heading.text = atx ? *atx : inline_text(node);
      outline.headings.push_back(std::move(heading));
    } else if (type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE) {
      const char* url = cmark_node_get_url(node);
      if (!url || !*url) continue;
      cmark_node* block = cmark_node_parent(node);
      while (block && !is_block(block)) block = cmark_node_parent(block);
      uint32_t first = block ? static_cast<uint32_t>(std::max(1, cmark_node_get_start_line(block)) - 1) : 0;
      uint32_t last =
          block ? static_cast<uint32_t>(std::max(1, cmark_node_get_end_line(block)) - 1) : outline.line_count;
      auto& from = search_from[block];
      if (from.first < first) from = {first, 0};
      MarkdownLink link;
      link.destination = url;
      auto found = locate(lines, link.destination, first, last, from);
      // A reference-style link's destination sits in its definition, anywhere in the file.
      if (!found) found = locate(lines, link.destination, first_line, outline.line_count, {first_line, 0});
      if (found) {
        link.line = found->first;
        link.column = found->second;
        if (found->first >= first && found->first <= last)
          from = {found->first, found->second + static_cast<uint32_t>(link.destination.size())};
      } else {
        link.line = first;
      }
      outline.links.push_back(std::move(link));
    }
  }
  return outline;
}

}  // namespace kl::guidance
