#pragma once
// What compute-sanitizer prints about a run, as structured reports, and those reports as
// Findings at the source lines they name (the program built with line info: `nvcc -lineinfo`).
// The four tools and the shapes of their reports (compute-sanitizer 2025.x):
//   memcheck   `Invalid __global__ read of size 4 bytes`, then `at kernel(...)+0x70 in a.cu:14`,
//              `by thread (232,0,0) in block (3,0,0)`, `Address 0x... is out of bounds`,
//              `and is 96 bytes after the nearest allocation at 0x... of size 4000 bytes`;
//              also misaligned addresses, and CUDA API errors (`Program hit cudaErrorX ...`)
//   racecheck  `Error: Race reported between Write access at f(...)+0x140 in a.cu:691`
//              `    and Read access at f(...)+0x730 in a.cu:706 [7152 hazards]` (also Warning:)
//   synccheck  `Barrier error detected. Divergent thread(s) in block`, then `at ... in a.cu:N`
//   initcheck  `Uninitialized __global__ memory read of size 4 bytes`, then `at ... in a.cu:N`
// Every line starts with `========= `. Pure text; no process runs here.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/finding.h"

namespace kl::runner {

struct SanitizerReport {
  std::string tool;   // memcheck, racecheck, synccheck, initcheck
  analyzers::Severity severity = analyzers::Severity::Error;
  std::string what;   // the report's first line, without the `Error:`/`Warning:` prefix
  std::string function;            // the device function of the (first) access, as printed
  std::string file;                // as the line info names it: absolute, or as compiled
  std::optional<uint32_t> line;    // 1-based, as printed
  std::string other_file;          // racecheck: the other access of the pair
  std::optional<uint32_t> other_line;
  std::string thread;              // `thread (232,0,0) in block (3,0,0)`
  std::vector<std::string> details;  // the lines that say why (address, allocation, hazards)
};

// Every report in the output of one compute-sanitizer run with `tool`.
std::vector<SanitizerReport> parse_sanitizer_output(std::string_view output, std::string_view tool);

// The reports as findings of the `compute-sanitizer` rule, at their source lines: `resolve` maps
// a printed file to the file on disk (empty: not found), and reports at files it does not find
// are left out. `context` ends each message ("while running `pytest tests`").
std::vector<analyzers::Finding> sanitizer_findings(
    const std::vector<SanitizerReport>& reports, const std::string& context,
    const std::function<std::filesystem::path(const std::string&)>& resolve);

}  // namespace kl::runner
