#pragma once
// A Finding is what every analysis produces: plain data, no LSP, no clang. Positions are 0-based
// lines and UTF-8 byte columns; the LSP layer converts to the negotiated encoding, the CLI to
// 1-based columns.
#include <cstdint>
#include <string>
#include <vector>

namespace kl::analyzers {

enum class Severity { Error, Warning, Information, Hint };

const char* severity_name(Severity severity);  // "error", "warning", "info", "hint"
bool parse_severity(const std::string& text, Severity& out);

struct Position {
  uint32_t line = 0;
  uint32_t column = 0;
  friend bool operator==(const Position&, const Position&) = default;
  friend auto operator<=>(const Position&, const Position&) = default;
};

struct Range {
  Position start;
  Position end;
  friend bool operator==(const Range&, const Range&) = default;
};

struct Location {
  std::string file;  // absolute path, or as the user named it
  Range range;
  friend bool operator==(const Location&, const Location&) = default;
};

struct TextEdit {
  std::string file;
  Range range;
  std::string new_text;
};

struct Fix {
  std::string title;  // "Guard with #if __CUDA_ARCH__ >= 800"
  std::vector<TextEdit> edits;
};

struct RelatedNote {
  Location location;
  std::string message;
};

struct Finding {
  std::string rule_id;  // stable id, see rules/rule_catalog.h
  Severity severity = Severity::Warning;
  Location location;
  std::string message;  // includes the fix hint, for agents that never ask for code actions
  std::vector<RelatedNote> notes;
  std::vector<Fix> fixes;
  // No link here: the link to the rule's guidance page is formed where findings are shown, from
  // rule_id (guidance/guidance_links.h), so that it names this installation's copy of the page.
};

}  // namespace kl::analyzers
