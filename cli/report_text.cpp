#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli/report.h"
#include "support/line_index.h"

namespace kl::cli {

std::string display_path(const std::string& path) {
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  if (ec) return path;
  std::filesystem::path p(path);
  if (!p.is_absolute()) return path;
  auto relative = p.lexically_relative(cwd);
  if (relative.empty() || relative.begin()->string() == "..") return path;
  return relative.string();
}

std::string summary_line(const LintReport& report) {
  size_t errors = 0, warnings = 0, others = 0, with_findings = 0;
  for (const auto& file : report.files) {
    if (!file.findings.empty()) ++with_findings;
    for (const auto& f : file.findings) {
      if (f.severity == analyzers::Severity::Error) ++errors;
      else if (f.severity == analyzers::Severity::Warning) ++warnings;
      else ++others;
    }
  }
  auto plural = [](size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
  };
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", report.seconds);
  std::string line = plural(errors, "error") + ", " + plural(warnings, "warning");
  if (others) line += ", " + plural(others, "note");
  line += " in " + plural(with_findings, "file") + " (" + std::to_string(report.files_analysed) +
          " analysed in " + seconds + " s)";
  return line;
}

namespace {

const char* color_of(analyzers::Severity s) {
  switch (s) {
    case analyzers::Severity::Error: return "\033[1;31m";
    case analyzers::Severity::Warning: return "\033[1;35m";
    default: return "\033[1;36m";
  }
}

// The source line with a caret under the start and tildes under the rest of the range
// (clang's layout), tabs kept so the caret lines up.
void write_excerpt(std::ostream& out, const LineIndex& lines, const analyzers::Range& range, bool color) {
  if (range.start.line >= lines.line_count()) return;
  std::string_view text = lines.line_text(range.start.line);
  if (text.size() > 400) return;
  out << "  " << text << "\n  ";
  for (uint32_t i = 0; i < range.start.column && i < text.size(); ++i) out << (text[i] == '\t' ? '\t' : ' ');
  if (color) out << "\033[1;32m";
  out << '^';
  uint32_t end = range.end.line == range.start.line ? range.end.column : static_cast<uint32_t>(text.size());
  for (uint32_t i = range.start.column + 1; i < end && i < text.size(); ++i) out << '~';
  if (color) out << "\033[0m";
  out << "\n";
}

}  // namespace

void write_text_report(const LintReport& report, std::ostream& out, bool color) {
  for (const auto& file : report.files) {
    LineIndex lines(file.text);
    for (const auto& f : file.findings) {
      std::string path = display_path(f.location.file);
      if (color) out << "\033[1m";
      out << path << ":" << f.location.range.start.line + 1 << ":" << f.location.range.start.column + 1 << ": ";
      if (color) out << color_of(f.severity);
      out << analyzers::severity_name(f.severity) << ":";
      if (color) out << "\033[0m\033[1m";
      out << " " << f.message << " [" << f.rule_id << "]";
      if (color) out << "\033[0m";
      out << "\n";
      if (f.location.file == file.path || display_path(file.path) == path) write_excerpt(out, lines, f.location.range, color);
      for (const auto& note : f.notes) {
        out << display_path(note.location.file) << ":" << note.location.range.start.line + 1 << ":"
            << note.location.range.start.column + 1 << ": note: " << note.message << "\n";
      }
    }
  }
  out << summary_line(report) << "\n";
}

}  // namespace kl::cli
