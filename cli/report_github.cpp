#include "cli/report.h"

namespace kl::cli {
namespace {

// Workflow commands: data escapes %, CR, LF; property values also : and ,.
std::string escape_data(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string escape_property(const std::string& s) {
  std::string out;
  for (char c : escape_data(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

const char* command_of(analyzers::Severity s) {
  switch (s) {
    case analyzers::Severity::Error: return "error";
    case analyzers::Severity::Warning: return "warning";
    default: return "notice";
  }
}

}  // namespace

void write_github_report(const LintReport& report, std::ostream& out) {
  for (const auto& file : report.files) {
    for (const auto& f : file.findings) {
      const auto& r = f.location.range;
      out << "::" << command_of(f.severity) << " file=" << escape_property(display_path(f.location.file))
          << ",line=" << r.start.line + 1 << ",col=" << r.start.column + 1 << ",endLine=" << r.end.line + 1
          << ",endColumn=" << r.end.column + 1 << ",title=" << escape_property("kernel-lsp " + f.rule_id)
          << "::" << escape_data(f.message) << "\n";
    }
  }
}

}  // namespace kl::cli
