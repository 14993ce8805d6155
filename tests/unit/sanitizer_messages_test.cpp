// compute-sanitizer's reports as findings: each tool's format, as measured runs of the fixtures
// printed it (synccheck and racecheck on an H100, 2026-12-06), and memcheck's out-of-bounds report.
#include <catch2/catch.hpp>

#include <string>

#include "runner/sanitizer_messages.h"

using namespace kl::runner;
using kl::analyzers::Severity;

namespace {

const char* kSynccheck =
    "========= COMPUTE-SANITIZER\n"
    "========= Barrier error detected. Divergent thread(s) in block.\n"
    "=========     at barrier_in_thread_branch(float *, const float *)+0x140 in sync_bugs.cu:153\n"
    "=========     by thread (192,0,0) in block (8,0,0)\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========         Host Frame: main [0x9c85] in sync_bugs\n"
    "========= \n"
    "========= Barrier error detected. Divergent thread(s) in block.\n"
    "=========     at barrier_in_thread_branch(float *, const float *)+0x140 in sync_bugs.cu:153\n"
    "=========     by thread (193,0,0) in block (8,0,0)\n"
    "========= \n"
    "========= ERROR SUMMARY: 2 errors\n";

const char* kRacecheck =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Race reported between Write access at void softmax_autoregressive_backward_kernel8<(int)256>(float *, const float *, const float *, int, int, int, float)+0x140 in attention_backward.cu:691\n"
    "=========     and Write access at void softmax_autoregressive_backward_kernel8<(int)256>(float *, const float *, const float *, int, int, int, float)+0x730 in attention_backward.cu:706 [7152 hazards]\n"
    "========= \n"
    "========= Warning: Race reported between Read access at f(float *)+0x60 in a.cu:12\n"
    "=========     and Write access at f(float *)+0x90 in a.cu:14 [32 hazards]\n"
    "========= \n"
    "RAN softmax_autoregressive_backward_kernel8: no error\n"
    "========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)\n";

const char* kRacecheckWithoutLineInfo =
    "========= Error: Race reported between Write access at transpose_no_barrier(float *, const float *, int)+0x220\n"
    "=========     and Read access at transpose_no_barrier(float *, const float *, int)+0x260 [229376 hazards]\n"
    "========= \n";

const char* kMemcheck =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ read of size 4 bytes\n"
    "=========     at add_unguarded(float *, const float *, const float *, int)+0x70 in /src/tests/fixtures/bounds/tails.cu:14\n"
    "=========     by thread (232,0,0) in block (3,0,0)\n"
    "=========     Address 0x7f5a3e000fa0 is out of bounds\n"
    "=========     and is 1 bytes after the nearest allocation at 0x7f5a3e000000 of size 4000 bytes\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========         Host Frame:  [0x2f2a4f] in libcuda.so.1\n"
    "========= \n"
    "========= ERROR SUMMARY: 1 error\n";

}  // namespace

TEST_CASE("synccheck: each divergent barrier report, with its line and thread") {
  auto reports = parse_sanitizer_output(kSynccheck, "synccheck");
  REQUIRE(reports.size() == 2);
  CHECK(reports[0].tool == "synccheck");
  CHECK(reports[0].what == "Barrier error detected. Divergent thread(s) in block");
  CHECK(reports[0].file == "sync_bugs.cu");
  CHECK(reports[0].line == 153u);
  CHECK(reports[0].function == "barrier_in_thread_branch(float *, const float *)");
  CHECK(reports[0].thread == "thread (192,0,0) in block (8,0,0)");
  // Findings: one per tool, report and line (the second thread's report adds nothing).
  auto findings = sanitizer_findings(reports, "(while running `./sync_bugs 10`)",
                                     [](const std::string& f) { return std::filesystem::path("/p") / f; });
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].rule_id == "compute-sanitizer");
  CHECK(findings[0].severity == Severity::Error);
  CHECK(findings[0].location.file == "/p/sync_bugs.cu");
  CHECK(findings[0].location.range.start.line == 152);
  CHECK(findings[0].message.find("synccheck: Barrier error detected") == 0);
  CHECK(findings[0].message.find("(while running `./sync_bugs 10`)") != std::string::npos);
}

TEST_CASE("racecheck: both accesses of a race, errors and warnings") {
  auto reports = parse_sanitizer_output(kRacecheck, "racecheck");
  REQUIRE(reports.size() == 2);
  CHECK(reports[0].what == "Race reported between Write access");
  CHECK(reports[0].file == "attention_backward.cu");
  CHECK(reports[0].line == 691u);
  CHECK(reports[0].other_line == 706u);
  REQUIRE_FALSE(reports[0].details.empty());
  CHECK(reports[0].details[0] == "7152 hazards");
  CHECK(reports[1].severity == Severity::Warning);
  auto findings = sanitizer_findings(reports, "", [](const std::string& f) { return std::filesystem::path("/p") / f; });
  REQUIRE(findings.size() == 2);
  REQUIRE(findings[0].notes.size() == 1);
  CHECK(findings[0].notes[0].location.range.start.line == 705);
  CHECK(findings[1].severity == Severity::Warning);
}

TEST_CASE("reports without line info are parsed but placed nowhere") {
  auto reports = parse_sanitizer_output(kRacecheckWithoutLineInfo, "racecheck");
  REQUIRE(reports.size() == 1);
  CHECK_FALSE(reports[0].line.has_value());
  CHECK(sanitizer_findings(reports, "", [](const std::string&) { return std::filesystem::path("/x"); }).empty());
}

TEST_CASE("memcheck: an out-of-bounds read with its address and allocation") {
  auto reports = parse_sanitizer_output(kMemcheck, "memcheck");
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].what == "Invalid __global__ read of size 4 bytes");
  CHECK(reports[0].file == "/src/tests/fixtures/bounds/tails.cu");
  CHECK(reports[0].line == 14u);
  REQUIRE(reports[0].details.size() == 2);
  CHECK(reports[0].details[1] == "and is 1 bytes after the nearest allocation at 0x7f5a3e000000 of size 4000 bytes");
  // A file the resolver cannot find leaves the report out.
  CHECK(sanitizer_findings(reports, "", [](const std::string&) { return std::filesystem::path(); }).empty());
}
