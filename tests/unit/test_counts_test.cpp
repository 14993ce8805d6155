// pytest's summary line read into counts (runner/test_counts.h): the forms pytest prints, and
// output that has none.
#include "runner/test_counts.h"

#include <catch2/catch.hpp>

using kl::runner::parse_pytest_summary;

TEST_CASE("pytest's summary line gives the counts") {
  auto plain = parse_pytest_summary("tests/test_a.py ..F.\n\n=========== 3 passed, 1 failed in 1.23s ===========\n");
  REQUIRE(plain);
  CHECK(plain->passed == 3);
  CHECK(plain->failed == 1);
  CHECK(plain->total() == 4);
  auto quiet = parse_pytest_summary("....s\n4 passed, 1 skipped in 0.40s\n");
  REQUIRE(quiet);
  CHECK(quiet->skipped == 1);
  auto long_run = parse_pytest_summary("== 10 passed, 2 xfailed, 1 error in 125.10s (0:02:05) ==\r\n");
  REQUIRE(long_run);
  CHECK(long_run->passed == 10);
  CHECK(long_run->skipped == 2);
  CHECK(long_run->errors == 1);
  // the last summary counts (pytest run twice by one command)
  auto twice = parse_pytest_summary("== 1 passed in 0.1s ==\n== 2 failed in 0.2s ==\n");
  REQUIRE(twice);
  CHECK(twice->failed == 2);
  CHECK(twice->passed == 0);
}

TEST_CASE("output without a pytest summary gives no counts") {
  CHECK_FALSE(parse_pytest_summary(""));
  CHECK_FALSE(parse_pytest_summary("RAN 0 add_unguarded no error\nall done in 3 s\n"));
  CHECK_FALSE(parse_pytest_summary("Ran 12 tests in 0.5s\n\nOK\n"));  // unittest's
  CHECK_FALSE(parse_pytest_summary("== warnings summary ==\n"));
}
