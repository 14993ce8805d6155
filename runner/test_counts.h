#pragma once
// How many tests a run passed, failed, skipped or errored, read from the summary line pytest
// prints last (`==== 3 passed, 1 failed, 2 skipped in 1.23s ====`, also without the `=` rule as
// `pytest -q` prints it). Pure text; nothing when the output has no such line (another test
// runner, or pytest killed before its summary).
#include <optional>
#include <string_view>

namespace kl::runner {

struct TestCounts {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  int errors = 0;  // collection or fixture errors
  int total() const { return passed + failed + skipped + errors; }
};

// The last pytest summary line of `output`.
std::optional<TestCounts> parse_pytest_summary(std::string_view output);

}  // namespace kl::runner
