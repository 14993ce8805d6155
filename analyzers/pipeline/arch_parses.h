#pragma once
// The device-side parses of one source file, arch by arch: the "parse sm_XX" stages of
// Analyzer::analyze_source and what follows from them. Internal to the pipeline.
//
// The most capable arch is parsed first: its headers declare the most (__reduce_add_sync exists
// only from 8.0), so when the user's code does not test an arch macro its parse serves every
// target arch. When it does, each other arch is preprocessed (a few times cheaper than a parse)
// and parsed only when its configuration signature (frontend/configuration_signature.h) differs
// from every parse so far: `#if __CUDA_ARCH__ >= 800` makes two parses of ten capabilities.
// After the first parse (published alone, as soon as it is done), the other archs are
// preprocessed side by side, grouped by signature, and one arch per new group is parsed, side
// by side too (ParseRequest::parallel): what is parsed and what each parse serves are the same
// as one at a time, in less wall time where cores are free.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/data/feature_table.h"
#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/configuration_signature.h"
#include "analyzers/frontend/definition_index.h"
#include "analyzers/model/unit_facts.h"
#include "analyzers/pipeline/analysis.h"
#include "analyzers/rules/rule_input.h"
#include "support/cancellation.h"
#include "support/parallel_runner.h"

namespace kl::analyzers {

class PreambleCache;
class ToolkitPchStore;

// What every arch's parse of the file shares.
struct ParseRequest {
  std::filesystem::path file;
  std::string_view text;
  ClangCommandInputs command;  // the clang command line's inputs other than the arch
  const FeatureTable* features = nullptr;
  ModelOptions model;
  PreambleCache* preambles = nullptr;  // null: parse without a precompiled preamble
  ToolkitPchStore* toolkit_pchs = nullptr;  // null: parse without the toolkit headers' PCH
  const CancellationToken* cancel = nullptr;
  ParallelRunner* parallel = nullptr;  // null: the other configurations one at a time
  // Which configuration each arch after the first has (0: the first's, k: the k-th other
  // parse's), when the last analysis of this file tells it (configuration_memory.h): those archs
  // are then parsed or served as it says, without being preprocessed.
  std::optional<std::vector<size_t>> known_configurations;
  // With known_configurations, each other configuration's signature events (k-1 for the k-th),
  // as the last analysis recorded them and moved past the edit (shared_bodies.h).
  std::optional<std::vector<ConfigurationEvents>> known_events;
  MacroNames* macro_names = nullptr;  // when given, gathers every configuration's macro names
};

// One configuration's parse: the arch it was parsed for, the other target archs whose
// preprocessing gave the same signature, the facts the model built from it and the lines clang
// reported errors on, its signature's events; the first parse also keeps its index of the main
// file's definitions, from which the other configurations' parses skip what they share with it
// (shared_bodies.h).
struct ArchParse {
  Capability arch;
  std::unique_ptr<UnitFacts> facts;
  std::set<std::pair<std::string, uint32_t>> error_lines;  // (file, 0-based line)
  ConfigurationSignature signature;
  std::vector<Capability> also_serves;
  ConfigurationEvents events;
  std::unique_ptr<DefinitionIndex> definitions;

  bool serves(const Capability& target) const;
};

// Called once the first parse is done when other configurations may follow, with the parses
// so far (one), so that a caller can publish what that parse shows before the rest is known.
using FirstParseHook = std::function<void(const std::vector<ArchParse>& parses)>;

// Parses for `targets` in the order above, most capable first, and adds to `result` each parse's
// timing, the first parse's missing headers (result.missing_headers) and its note on a flood of
// clang errors, and one warning when parses failed (the archs a failed parse would have served
// read the first parse's facts). Checks `cancel` before each piece of work and after each
// phase: when it fired, sets result.cancelled and returns.
// Timings are "parse sm_XX" and "preprocess sm_XX" stages.
std::vector<ArchParse> parse_arch_by_arch(const ParseRequest& request, const std::vector<Capability>& targets,
                                          FileAnalysis& result, const FirstParseHook& after_first = {});

// For each arch after the first in parse order (`archs` as parse_arch_by_arch orders them), the
// configuration `parses` gives it: 0 for the first parse's, k for parses[k]'s.
std::vector<size_t> configurations_of(const std::vector<Capability>& archs, const std::vector<ArchParse>& parses);

// The signature events of parses[1], parses[2], ... (configurations 1, 2, ... of configurations_of).
std::vector<ConfigurationEvents> events_of_other_configurations(const std::vector<ArchParse>& parses);

// `targets` in the order they are parsed: the most capable first.
std::vector<Capability> parse_order_of(const std::vector<Capability>& targets);

// The target archs the parses serve (each parse's own and its also_serves), in `targets` order.
std::vector<Capability> served_archs(const std::vector<Capability>& targets, const std::vector<ArchParse>& parses);

// A call that only the most capable arch's headers declare (bf16 __hfma below 8.0) does not
// resolve in a less capable arch's parse, so that parse shows an error instead of the use.
// Where the error sits on the use's line, the use is active there too: each later parse gets
// the first parse's uses on its error lines, unless it has them already.
void carry_uses_over_error_lines(std::vector<ArchParse>& parses);

// The file's one note on what its parse lacked: the headers of result.missing_headers (on the
// first one's #include line), and clang's errors when there were many.
void report_incomplete_parse(std::string_view text, const std::string& file_name, FileAnalysis& result);

// The facts each target arch's rules read: the parse that serves it, or the first parse's when
// none does (the code does not test an arch macro). `parses` must not be empty.
std::vector<ArchFacts> facts_per_target(const std::vector<Capability>& targets,
                                        const std::vector<ArchParse>& parses);

}  // namespace kl::analyzers
