#include "runner/test_counts.h"

#include <regex>
#include <string>

namespace kl::runner {
namespace {

// One line: "<n> <word>" items separated by commas, then " in <seconds>s" (pytest's summary).
std::optional<TestCounts> parse_line(const std::string& line) {
  static const std::regex summary(R"(^=*\s*((\d+ [a-z]+(, )?)+) in [0-9.]+s( \([0-9:]+\))?\s*=*\s*$)");
  std::smatch match;
  if (!std::regex_match(line, match, summary)) return std::nullopt;
  static const std::regex item(R"((\d+) ([a-z]+))");
  TestCounts counts;
  bool any = false;
  std::string items = match[1].str();
  for (std::sregex_iterator it(items.begin(), items.end(), item), end; it != end; ++it) {
    int n = std::stoi((*it)[1].str());
    std::string word = (*it)[2].str();
    if (word == "passed") counts.passed += n, any = true;
    else if (word == "failed") counts.failed += n, any = true;
    else if (word == "skipped" || word == "xfailed" || word == "deselected") counts.skipped += n, any = true;
    else if (word == "error" || word == "errors") counts.errors += n, any = true;
    else if (word == "xpassed") counts.passed += n, any = true;
  }
  return any ? std::optional<TestCounts>(counts) : std::nullopt;
}

}  // namespace

std::optional<TestCounts> parse_pytest_summary(std::string_view output) {
  std::optional<TestCounts> last;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string_view::npos) end = output.size();
    std::string_view raw = output.substr(start, end - start);
    std::string line(raw.substr(0, raw.find_last_not_of(" \r") + 1));  // blanks and \r off its end
    if (line.find(" in ") != std::string::npos)
      if (auto counts = parse_line(line)) last = counts;
    start = end + 1;
  }
  return last;
}

}  // namespace kl::runner
