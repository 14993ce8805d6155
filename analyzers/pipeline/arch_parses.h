#pragma once
// The device-side parses of one source file, arch by arch: the "parse sm_XX" stages of
// Analyzer::analyze_source and what follows from them. Internal to the pipeline.
//
// The most capable arch is parsed first: its headers declare the most (__reduce_add_sync exists
// only from 8.0), so when the user's code does not test an arch macro its parse serves every
// target arch. The others are parsed only when the code does.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/data/feature_table.h"
#include "analyzers/frontend/clang_command.h"
#include "analyzers/model/unit_facts.h"
#include "analyzers/pipeline/analysis.h"
#include "analyzers/rules/rule_input.h"
#include "support/cancellation.h"

namespace kl::analyzers {

class PreambleCache;

// What every arch's parse of the file shares.
struct ParseRequest {
  std::filesystem::path file;
  std::string_view text;
  ClangCommandInputs command;  // the clang command line's inputs other than the arch
  const FeatureTable* features = nullptr;
  ModelOptions model;
  PreambleCache* preambles = nullptr;  // null: parse without a precompiled preamble
  const CancellationToken* cancel = nullptr;
};

// One arch's parse: the facts the model built from it and the lines clang reported errors on.
struct ArchParse {
  Capability arch;
  std::unique_ptr<UnitFacts> facts;
  std::set<std::pair<std::string, uint32_t>> error_lines;  // (file, 0-based line)
};

// Parses for `targets` in the order above, most capable first, and adds to `result` each parse's
// timing, the first parse's missing headers (result.missing_headers) and its note on a flood of
// clang errors, and a warning for a parse that failed, which ends the loop. Checks `cancel`
// before each parse and after a failed one: when it fired, sets result.cancelled and returns.
std::vector<ArchParse> parse_arch_by_arch(const ParseRequest& request, const std::vector<Capability>& targets,
                                          FileAnalysis& result);

// A call that only the most capable arch's headers declare (bf16 __hfma below 8.0) does not
// resolve in a less capable arch's parse, so that parse shows an error instead of the use.
// Where the error sits on the use's line, the use is active there too: each later parse gets
// the first parse's uses on its error lines, unless it has them already.
void carry_uses_over_error_lines(std::vector<ArchParse>& parses);

// One finding per header in result.missing_headers, on the #include line that names it.
void report_missing_headers(std::string_view text, const std::string& file_name, FileAnalysis& result);

// The facts each target arch's rules read: its own parse's, or the first parse's when it was not
// parsed on its own. `parses` must not be empty.
std::vector<ArchFacts> facts_per_target(const std::vector<Capability>& targets,
                                        const std::vector<ArchParse>& parses);

}  // namespace kl::analyzers
