#include "analyzers/finding.h"

namespace kl::analyzers {

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Information: return "info";
    case Severity::Hint: return "hint";
  }
  return "warning";
}

bool parse_severity(const std::string& text, Severity& out) {
  if (text == "error") out = Severity::Error;
  else if (text == "warning") out = Severity::Warning;
  else if (text == "info" || text == "information" || text == "note") out = Severity::Information;
  else if (text == "hint") out = Severity::Hint;
  else return false;
  return true;
}

}  // namespace kl::analyzers
