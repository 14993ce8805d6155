#include "runner/sanitizer_messages.h"

#include <regex>
#include <set>

#include "analyzers/rules/rule_catalog.h"

namespace kl::runner {
namespace {

constexpr std::string_view kPrefix = "=========";

// The text of a sanitizer line after its `========= ` prefix and the indentation, and how deep
// that indentation was (continuation lines are indented).
std::string_view body_of(std::string_view line, size_t& indent) {
  line.remove_prefix(kPrefix.size());
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  indent = i;
  line.remove_prefix(i);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  return line;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// `at f(int, float *)+0x70 in /x/a.cu:14` or `and Read access at f(...)+0x730 in a.cu:706 [12 hazards]`:
// the function, the file and the line.
bool parse_location(const std::string& text, std::string& function, std::string& file, std::optional<uint32_t>& line) {
  static const std::regex located(R"((?:^|\s)at (.+?)(?:\+0x[0-9a-fA-F]+)? in (.+):(\d+)(?:\s+\[.*\])?$)");
  std::smatch m;
  if (!std::regex_search(text, m, located)) return false;
  function = m[1].str();
  file = m[2].str();
  line = static_cast<uint32_t>(std::stoul(m[3].str()));
  return true;
}

bool opens_report(std::string_view body, std::string_view tool) {
  if (starts_with(body, "Error:") || starts_with(body, "Warning:")) return true;
  if (starts_with(body, "Invalid ") || starts_with(body, "Uninitialized ") || starts_with(body, "Misaligned ") ||
      starts_with(body, "Barrier error") || starts_with(body, "Program hit "))
    return true;
  return tool == "synccheck" && body.find("detected") != std::string_view::npos;
}

}  // namespace

std::vector<SanitizerReport> parse_sanitizer_output(std::string_view output, std::string_view tool) {
  std::vector<SanitizerReport> reports;
  SanitizerReport* open = nullptr;
  size_t start = 0;
  while (start <= output.size()) {
    size_t end = output.find('\n', start);
    std::string_view line = output.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    start = end == std::string_view::npos ? output.size() + 1 : end + 1;
    if (!starts_with(line, kPrefix)) continue;
    size_t indent = 0;
    std::string_view body = body_of(line, indent);
    if (body.empty() || starts_with(body, "COMPUTE-SANITIZER") || body.find("SUMMARY") != std::string_view::npos ||
        starts_with(body, "Saved host backtrace") || starts_with(body, "Host Frame")) {
      if (body.empty()) open = nullptr;
      continue;
    }
    if (indent <= 1 && opens_report(body, tool)) {  // `========= X`: one space, not indented
      SanitizerReport r;
      r.tool = std::string(tool);
      std::string what(body);
      if (starts_with(body, "Warning:")) r.severity = analyzers::Severity::Warning;
      for (std::string_view p : {"Error: ", "Warning: "})
        if (starts_with(what, p)) what = what.substr(p.size());
      // racecheck names the first access on the report's own line.
      if (parse_location(what, r.function, r.file, r.line)) {
        auto at = what.find(" at ");
        if (at != std::string::npos) what = what.substr(0, at);
      }
      while (!what.empty() && (what.back() == '.' || what.back() == ' ')) what.pop_back();
      r.what = what;
      reports.push_back(std::move(r));
      open = &reports.back();
      continue;
    }
    if (!open) continue;
    std::string text(body);
    std::string function, file;
    std::optional<uint32_t> at;
    if (parse_location(text, function, file, at)) {
      if (!open->line) {
        open->function = function;
        open->file = file;
        open->line = at;
      } else if (!open->other_line && starts_with(body, "and ")) {
        open->other_file = file;
        open->other_line = at;
        static const std::regex hazards(R"(\[(\d+) hazards?\])");
        std::smatch m;
        if (std::regex_search(text, m, hazards)) open->details.push_back(m[1].str() + " hazards");
      }
      continue;
    }
    if (starts_with(body, "by thread ")) {
      open->thread = text.substr(3);
      continue;
    }
    if (open->details.size() < 4) open->details.push_back(text);
  }
  return reports;
}

std::vector<analyzers::Finding> sanitizer_findings(
    const std::vector<SanitizerReport>& reports, const std::string& context,
    const std::function<std::filesystem::path(const std::string&)>& resolve) {
  std::vector<analyzers::Finding> findings;
  std::set<std::string> seen;  // one finding per tool, message and line: a kernel reports per thread
  for (const SanitizerReport& r : reports) {
    if (!r.line) continue;
    std::filesystem::path file = resolve(r.file);
    if (file.empty()) continue;
    std::string message = r.tool + ": " + r.what;
    if (r.other_line) message += " (the other access at " + std::filesystem::path(r.other_file).filename().string() + ":" + std::to_string(*r.other_line) + ")";
    if (!r.thread.empty()) message += ", " + r.thread;
    for (const std::string& d : r.details) message += "; " + d;
    if (!r.function.empty()) message += " [in " + r.function + "]";
    if (!context.empty()) message += " " + context;
    std::string key = r.tool + "|" + r.what + "|" + file.string() + ":" + std::to_string(*r.line);
    if (!seen.insert(key).second) continue;
    analyzers::Finding f;
    f.rule_id = std::string(analyzers::kComputeSanitizer);
    f.severity = r.severity;
    f.location.file = file.string();
    f.location.range.start.line = *r.line - 1;
    f.location.range.end.line = *r.line - 1;
    f.message = std::move(message);
    if (r.other_line) {
      if (std::filesystem::path other = resolve(r.other_file); !other.empty()) {
        analyzers::Location where;
        where.file = other.string();
        where.range.start.line = where.range.end.line = *r.other_line - 1;
        f.notes.push_back({where, "the other access of the race"});
      }
    }
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace kl::runner
