#include "analyzers/pipeline/arch_parses.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/frontend/preamble_cache.h"
#include "analyzers/model/facts_builder.h"
#include "analyzers/pipeline/shared_bodies.h"
#include "analyzers/pipeline/stage_timer.h"
#include "analyzers/rules/frontend.h"
#include "support/crash_stage.h"
#include "support/line_index.h"
#include "support/parallel_runner.h"

namespace kl::analyzers {

namespace {

// Beyond this many clang errors the first parse's findings are likely incomplete, and the user
// is told so.
constexpr size_t kManyErrors = 20;

bool more_capable(const Capability& a, const Capability& b) {
  if (a.number() != b.number()) return a.number() > b.number();
  return static_cast<int>(a.variant) > static_cast<int>(b.variant);
}

bool is_cancelled(const CancellationToken* cancel) { return cancel && cancel->is_cancelled(); }

// The macros whose test makes user code arch-dependent: those of the feature table.
std::vector<std::string> watched_macros(const FeatureTable& features) {
  std::vector<std::string> macros;
  for (const auto& f : features.all())
    if (f.kind == FeatureKind::Macro) macros.insert(macros.end(), f.names.begin(), f.names.end());
  return macros;
}

// What the first parse alone reports: its missing headers, and clang's error count when the
// errors are so many that findings may be incomplete (report_incomplete_parse makes the note).
void note_first_parse(const ParseOutcome& outcome, const std::string& file_name, FileAnalysis& result) {
  for (const auto& header : outcome.missing_headers) {
    if (std::find(result.missing_headers.begin(), result.missing_headers.end(), header) ==
        result.missing_headers.end())
      result.missing_headers.push_back(header);
  }
  if (outcome.errors.size() >= kManyErrors) {
    result.clang_errors = outcome.errors.size();
    result.first_clang_error = outcome.errors.front().message;
    result.first_clang_error_location = {file_name, outcome.errors.front().location.range};
  }
}

// What a parse of another configuration shares with the first: the bodies it skips, and the
// first parse's facts for them.
struct SharedWithFirst {
  SharedBodies bodies;
  const UnitFacts* first = nullptr;
};

// How a parse relates to the others: the first (`sharing`: more configurations may follow, so it
// indexes the main file's definitions and records its signature's events), or another (`sharing`:
// it records its events for the next edit's parse of it, shared_bodies.h), which may share
// bodies with the first.
struct ParseRole {
  bool first = false;
  bool sharing = false;
  const SharedWithFirst* shared = nullptr;
};

// One arch's parse, with its timing. Empty when the parse failed: then a warning, or, when it
// failed because `cancel` fired, result.cancelled.
std::optional<ArchParse> parse_for_arch(const ParseRequest& request, const Capability& arch,
                                        const std::vector<std::string>& watched, ParseRole role,
                                        FileAnalysis& result) {
  StageTimer timer;
  auto facts = std::make_unique<UnitFacts>();
  std::unique_ptr<DefinitionIndex> definitions;
  auto argv = device_parse_command(request.command, arch);
  CrashStage parse_stage("the clang parse");
  const bool first = role.first;
  auto outcome = parse_device_side(
      argv, request.file, request.text,
      [&](clang::ASTContext& context, const SourceView& view) {
        build_unit_facts(context, view, *request.features, request.model, *facts);
        if (first && role.sharing)
          definitions = std::make_unique<DefinitionIndex>(index_definitions(context, view));
      },
      watched, request.cancel, request.preambles, request.toolkit_pchs, first ? request.macro_names : nullptr,
      ConfigurationParse{role.sharing, role.shared ? &role.shared->bodies.skipped : nullptr});
  timer.record(result.timings, "parse " + arch.sm_name());
  if (!outcome) {
    if (is_cancelled(request.cancel)) {
      result.cancelled = true;
    } else {
      result.findings.push_back(
          frontend_finding({request.file.string(), Range{}}, outcome.error().describe(), Severity::Warning));
    }
    return std::nullopt;
  }
  add_preprocessor_facts(*outcome, *request.features, *facts);
  // What this parse read joins what the analysis read before (analysis.h: each once).
  result.inputs.insert(result.inputs.end(), outcome->included_files.begin(), outcome->included_files.end());
  std::sort(result.inputs.begin(), result.inputs.end());
  result.inputs.erase(std::unique(result.inputs.begin(), result.inputs.end()), result.inputs.end());
  if (role.shared)
    carry_shared_facts(*role.shared->first, role.shared->bodies, request.file.string(), *facts);
  ArchParse parse{arch, std::move(facts), {}, outcome->signature, {}, {}, std::move(definitions)};
  for (const auto& error : outcome->errors)
    parse.error_lines.emplace(error.location.file, error.location.range.start.line);
  parse.facts->arch_dependent = outcome->arch_dependent;
  if (first) note_first_parse(*outcome, request.file.string(), result);
  if (role.sharing) parse.events = std::move(outcome->events);  // else a preamble's event alone
  return parse;
}

// `arch`'s configuration signature from a preprocessing run; none when it failed (then `arch`
// is parsed: a parse is never skipped on a guess).
// With `events`, also the signature's events (shared_bodies.h).
std::optional<ConfigurationSignature> preprocess_for_arch(const ParseRequest& request, const Capability& arch,
                                                          FileAnalysis& result, MacroNames* macro_names,
                                                          ConfigurationEvents* events = nullptr) {
  StageTimer timer;
  CrashStage stage("the preprocessor");
  const std::vector<std::string> argv = device_parse_command(request.command, arch);
  auto signature = preprocess_signature(argv, request.file, request.text, request.cancel, request.preambles,
                                        request.toolkit_pchs, macro_names, events);
  timer.record(result.timings, "preprocess " + arch.sm_name());
  if (!signature) return std::nullopt;
  return *signature;
}

// Calls work(i) for i in [0, count), side by side when the request has a runner.
void for_each_configuration(const ParseRequest& request, size_t count,
                            const std::function<void(size_t)>& work) {
  if (request.parallel) {
    request.parallel->run(count, work);
    return;
  }
  for (size_t i = 0; i < count; ++i) work(i);
}

// What each piece of work of the parallel phases adds to the analysis, merged into `result` in
// arch order once all are done, so that the result does not depend on which finished first.
void merge_scratch(const FileAnalysis& scratch, FileAnalysis& result, bool& warned) {
  result.timings.insert(result.timings.end(), scratch.timings.begin(), scratch.timings.end());
  result.inputs.insert(result.inputs.end(), scratch.inputs.begin(), scratch.inputs.end());
  std::sort(result.inputs.begin(), result.inputs.end());
  result.inputs.erase(std::unique(result.inputs.begin(), result.inputs.end()), result.inputs.end());
  result.cancelled = result.cancelled || scratch.cancelled;
  // One warning for failed parses, as when the first failure ended the loop.
  if (!warned && !scratch.findings.empty()) {
    result.findings.insert(result.findings.end(), scratch.findings.begin(), scratch.findings.end());
    warned = true;
  }
}

// Which parse serves each of the other archs: one made already (`parses`) or one to make (the
// arch of the group's first member, in `to_parse`). Archs whose preprocessing failed are
// parsed, each on its own.
struct ConfigurationGroups {
  struct Server {
    bool existing = false;  // index into `parses`; else into `to_parse`
    size_t index = 0;
  };
  std::vector<Server> served_by;  // per other arch
  std::vector<size_t> to_parse;   // indices into the other archs
};

ConfigurationGroups group_by_signature(const std::vector<std::optional<ConfigurationSignature>>& signatures,
                                       const std::vector<ArchParse>& parses) {
  ConfigurationGroups groups;
  for (size_t i = 0; i < signatures.size(); ++i) {
    std::optional<ConfigurationGroups::Server> server;
    if (signatures[i]) {
      for (size_t p = 0; p < parses.size() && !server; ++p)
        if (parses[p].signature == *signatures[i]) server = {true, p};
      for (size_t k = 0; k < groups.to_parse.size() && !server; ++k)
        if (signatures[groups.to_parse[k]] == signatures[i]) server = {false, k};
    }
    if (!server) {
      server = {false, groups.to_parse.size()};
      groups.to_parse.push_back(i);
    }
    groups.served_by.push_back(*server);
  }
  return groups;
}

// Parses one arch per new group (side by side), skipping what each shares with the first parse,
// and records which parse serves each of the other archs.
void parse_new_groups(const ParseRequest& request, const std::vector<Capability>& others,
                      const std::vector<std::string>& watched, const ConfigurationGroups& groups,
                      const std::vector<std::optional<SharedWithFirst>>& shared, bool sharing,
                      std::vector<ArchParse>& parses, FileAnalysis& result, bool& warned) {
  std::vector<std::optional<ArchParse>> parsed(groups.to_parse.size());
  std::vector<FileAnalysis> parse_scratch(groups.to_parse.size());
  for_each_configuration(request, groups.to_parse.size(), [&](size_t k) {
    if (is_cancelled(request.cancel)) return;
    const ParseRole role{false, sharing, shared[k] ? &*shared[k] : nullptr};
    parsed[k] = parse_for_arch(request, others[groups.to_parse[k]], watched, role, parse_scratch[k]);
  });
  for (auto& piece : parse_scratch) merge_scratch(piece, result, warned);
  if (is_cancelled(request.cancel)) {
    result.cancelled = true;
    return;
  }
  std::vector<std::optional<size_t>> landed(parsed.size());  // where each new parse is in `parses`
  for (size_t k = 0; k < parsed.size(); ++k) {
    if (!parsed[k]) continue;  // failed (one warning above): its archs read the first parse's facts
    landed[k] = parses.size();
    parses.push_back(std::move(*parsed[k]));
  }
  for (size_t i = 0; i < others.size(); ++i) {
    const ConfigurationGroups::Server& server = groups.served_by[i];
    std::optional<size_t> target =
        server.existing ? std::optional<size_t>(server.index) : landed[server.index];
    if (target && parses[*target].arch != others[i]) parses[*target].also_serves.push_back(others[i]);
  }
}

// KERNEL_LSP_LOG_SHARED_BODIES=1: how many of the main file's function bodies each other
// configuration's parse skips, on stderr (for measuring shared_bodies.h over a corpus).
bool shared_bodies_logged() { return std::getenv("KERNEL_LSP_LOG_SHARED_BODIES") != nullptr; }

void report_shared_bodies(const std::string& file, const Capability& arch, const DefinitionIndex& index,
                          const SharedBodies* shared, const std::string& why_not) {
  size_t bodies = 0;
  for (const Definition& definition : index.definitions) bodies += definition.bodies.size();
  std::fprintf(stderr, "shared bodies: %s %s: %zu of %zu skipped%s%s\n", file.c_str(), arch.sm_name().c_str(),
               shared ? shared->skipped.size() : 0, bodies, why_not.empty() ? "" : ": ", why_not.c_str());
}

// What each configuration to parse (groups.to_parse) can share with the first parse, from its
// signature's events: those of the preprocessing that grouped it, or, when the grouping was known
// without one, those the last analysis recorded (moved past the edit), else those of a
// preprocessing run now (a few milliseconds against the ~60 % of a parse that skipping saves).
std::vector<std::optional<SharedWithFirst>> share_with_first(const ParseRequest& request,
                                                             const std::vector<Capability>& others,
                                                             const ConfigurationGroups& groups,
                                                             std::vector<ConfigurationEvents>& events,
                                                             std::vector<bool> have_events,
                                                             const ArchParse& first, FileAnalysis& result) {
  std::vector<FileAnalysis> scratch(groups.to_parse.size());
  const bool known = request.known_configurations && request.known_events &&
                     request.known_configurations->size() == others.size();
  for (size_t i = 0; i < others.size() && known; ++i) {
    size_t configuration = (*request.known_configurations)[i];
    if (!have_events[i] && configuration > 0 && configuration <= request.known_events->size()) {
      events[i] = (*request.known_events)[configuration - 1];
      have_events[i] = true;
    }
  }
  for_each_configuration(request, groups.to_parse.size(), [&](size_t k) {
    size_t i = groups.to_parse[k];
    if (!have_events[i] && !is_cancelled(request.cancel))
      have_events[i] = preprocess_for_arch(request, others[i], scratch[k], nullptr, &events[i]).has_value();
  });
  bool warned = true;  // a failed preprocessing only leaves its configuration parsed whole
  for (auto& piece : scratch) merge_scratch(piece, result, warned);
  std::vector<std::optional<SharedWithFirst>> shared(groups.to_parse.size());
  for (size_t k = 0; k < groups.to_parse.size(); ++k) {
    size_t i = groups.to_parse[k];
    if (!have_events[i]) continue;
    const FirstParse first_parse{*first.definitions, first.events, *first.facts};
    std::string why_not;
    if (auto bodies =
            plan_shared_bodies(first_parse, request.text, request.file.string(), events[i], &why_not))
      shared[k] = SharedWithFirst{std::move(*bodies), first.facts.get()};
    if (shared_bodies_logged())
      report_shared_bodies(request.file.string(), others[i], *first.definitions,
                           shared[k] ? &shared[k]->bodies : nullptr, why_not);
  }
  return shared;
}

// The archs after the first, in two phases whose pieces run side by side: each arch is
// preprocessed; archs are grouped by signature with the parses so far and with each other (in
// parse order, so the first arch of a group is the one parsed); one arch per new group is
// parsed, skipping what it shares with the first parse (shared_bodies.h). A parse's signature
// equals its preprocessing's (configuration_signature.h), so the groups are those the
// one-arch-at-a-time order made, whatever the threads.
void parse_other_configurations(const ParseRequest& request, const std::vector<Capability>& others,
                                const std::vector<std::string>& watched, std::vector<ArchParse>& parses,
                                FileAnalysis& result) {
  std::vector<std::optional<ConfigurationSignature>> signatures(others.size());
  std::vector<ConfigurationEvents> events(others.size());
  const bool sharing = parses.front().definitions && !shared_bodies_disabled();
  std::vector<FileAnalysis> scratch(others.size());
  std::vector<MacroNames> names(request.macro_names ? others.size() : 0);
  const bool known = request.known_configurations && request.known_configurations->size() == others.size();
  if (known) {
    // Known from the last analysis: the first parse's signature for its configuration, and one
    // stand-in per other configuration that no preprocessing can produce (no event count is
    // that large), so that grouping gives the same groups.
    for (size_t i = 0; i < others.size(); ++i) {
      size_t configuration = (*request.known_configurations)[i];
      signatures[i] = configuration == 0 ? parses.front().signature
                                         : ConfigurationSignature{configuration, ~configuration, UINT64_MAX};
    }
  } else {
    for_each_configuration(request, others.size(), [&](size_t i) {
      if (!is_cancelled(request.cancel))
        signatures[i] =
            preprocess_for_arch(request, others[i], scratch[i], names.empty() ? nullptr : &names[i],
                                sharing ? &events[i] : nullptr);
    });
  }
  for (const auto& set : names) request.macro_names->insert(set.begin(), set.end());
  bool warned = false;
  for (auto& piece : scratch) merge_scratch(piece, result, warned);
  if (is_cancelled(request.cancel)) {
    result.cancelled = true;
    return;
  }
  const ConfigurationGroups groups = group_by_signature(signatures, parses);
  // An arch that is not parsed gets a preamble for the next edit's check of it (not needed
  // while the grouping is known: the next edit is likely to keep it too).
  for (size_t i = 0; i < others.size() && request.preambles && !known; ++i)
    if (groups.served_by[i].existing || groups.to_parse[groups.served_by[i].index] != i)
      warm_preamble(device_parse_command(request.command, others[i]), request.file, request.text,
                    *request.preambles, watched, request.toolkit_pchs);
  std::vector<bool> have_events(others.size(), false);
  for (size_t i = 0; i < others.size(); ++i) have_events[i] = !known && signatures[i].has_value();
  const std::vector<std::optional<SharedWithFirst>> shared =
      sharing ? share_with_first(request, others, groups, events, have_events, parses.front(), result)
              : std::vector<std::optional<SharedWithFirst>>(groups.to_parse.size());
  parse_new_groups(request, others, watched, groups, shared, sharing, parses, result, warned);
}

// The #include line that names `header`, for placing "header not found" where it is written.
Range include_line_of(std::string_view text, const std::string& header) {
  LineIndex lines(text);
  for (uint32_t line = 0; line < lines.line_count(); ++line) {
    std::string_view s = lines.line_text(line);
    if (s.find("#") != std::string_view::npos && s.find("include") != std::string_view::npos &&
        s.find(header) != std::string_view::npos)
      return Range{{line, 0}, {line, static_cast<uint32_t>(s.size())}};
  }
  return Range{};
}

}  // namespace

std::vector<Capability> parse_order_of(const std::vector<Capability>& targets) {
  std::vector<Capability> parse_order = targets;
  std::stable_sort(parse_order.begin(), parse_order.end(), more_capable);
  return parse_order;
}

std::vector<size_t> configurations_of(const std::vector<Capability>& archs, const std::vector<ArchParse>& parses) {
  std::vector<size_t> configurations;
  for (size_t i = 1; i < archs.size(); ++i) {
    size_t configuration = 0;
    for (size_t p = 0; p < parses.size(); ++p)
      if (parses[p].serves(archs[i])) configuration = p;
    configurations.push_back(configuration);
  }
  return configurations;
}

std::vector<ConfigurationEvents> events_of_other_configurations(const std::vector<ArchParse>& parses) {
  std::vector<ConfigurationEvents> events;
  for (size_t p = 1; p < parses.size(); ++p) events.push_back(parses[p].events);
  return events;
}

std::vector<ArchParse> parse_arch_by_arch(const ParseRequest& request, const std::vector<Capability>& targets,
                                          FileAnalysis& result, const FirstParseHook& after_first) {
  const std::vector<Capability> parse_order = parse_order_of(targets);
  const std::vector<std::string> watched = watched_macros(*request.features);
  std::vector<ArchParse> parses;
  if (parse_order.empty() || is_cancelled(request.cancel)) {
    result.cancelled = is_cancelled(request.cancel);
    return parses;
  }
  const ParseRole first_role{true, parse_order.size() > 1 && !shared_bodies_disabled(), nullptr};
  std::optional<ArchParse> first = parse_for_arch(request, parse_order.front(), watched, first_role, result);
  if (!first) return parses;
  bool arch_dependent = first->facts->arch_dependent;
  parses.push_back(std::move(*first));
  if (!arch_dependent || parse_order.size() == 1) return parses;
  if (after_first) after_first(parses);
  if (is_cancelled(request.cancel)) {
    result.cancelled = true;
    return parses;
  }
  const std::vector<Capability> others(parse_order.begin() + 1, parse_order.end());
  parse_other_configurations(request, others, watched, parses, result);
  return parses;
}

bool ArchParse::serves(const Capability& target) const {
  return arch == target || std::find(also_serves.begin(), also_serves.end(), target) != also_serves.end();
}

std::vector<Capability> served_archs(const std::vector<Capability>& targets, const std::vector<ArchParse>& parses) {
  std::vector<Capability> served;
  for (const Capability& target : targets)
    if (std::any_of(parses.begin(), parses.end(), [&](const ArchParse& p) { return p.serves(target); }))
      served.push_back(target);
  return served;
}

void carry_uses_over_error_lines(std::vector<ArchParse>& parses) {
  if (parses.empty()) return;
  const std::vector<FeatureUse>& first_uses = parses.front().facts->feature_uses;
  for (size_t i = 1; i < parses.size(); ++i) {
    std::vector<FeatureUse>& uses = parses[i].facts->feature_uses;
    for (const auto& use : first_uses) {
      if (!parses[i].error_lines.count({use.location.file, use.location.range.start.line})) continue;
      bool present = std::any_of(uses.begin(), uses.end(), [&](const FeatureUse& u) {
        return u.feature_id == use.feature_id && u.location == use.location;
      });
      if (!present) uses.push_back(use);
    }
  }
}

void report_incomplete_parse(std::string_view text, const std::string& file_name, FileAnalysis& result) {
  std::string errors;
  if (result.clang_errors > 0)
    errors = "clang reported " + std::to_string(result.clang_errors) + " errors in this file (first: " +
             result.first_clang_error + "), so findings may be incomplete.";
  if (result.missing_headers.empty()) {
    if (!errors.empty()) result.findings.push_back(frontend_finding(result.first_clang_error_location, errors));
    return;
  }
  // One note per file, on the first #include that was not found: one per header made a dozen
  // notes on files of projects whose include paths the lint was not given.
  const std::vector<std::string>& headers = result.missing_headers;
  std::string names = "`" + headers[0] + "`";
  for (size_t i = 1; i < headers.size() && i < 3; ++i) names += (i + 1 == headers.size() ? " and `" : ", `") + headers[i] + "`";
  if (headers.size() > 3) names += " and " + std::to_string(headers.size() - 3) + " more";
  bool cutlass = std::any_of(headers.begin(), headers.end(), [](const std::string& h) {
    return h.rfind("cute/", 0) == 0 || h.rfind("cutlass/", 0) == 0;  // the builder fetches CUTLASS
  });
  std::string where = cutlass ? "Point the cutlassPath setting (or CUTLASS_PATH) at a CUTLASS checkout, and add "
                                "the project's other include paths (compile_commands.json, or the extraFlags setting)"
                              : "Add the include paths (compile_commands.json, or the extraFlags setting)";
  std::string message = names + (headers.size() == 1 ? " was" : " were") +
                        " not found; device code that does not depend on " + (headers.size() == 1 ? "it" : "them") +
                        " is still analysed. " + where + " for complete results.";
  if (!errors.empty()) message += " Without them " + errors;
  result.findings.push_back(frontend_finding({file_name, include_line_of(text, headers[0])}, message));
}

std::vector<ArchFacts> facts_per_target(const std::vector<Capability>& targets,
                                        const std::vector<ArchParse>& parses) {
  std::vector<ArchFacts> facts;
  for (const Capability& arch : targets) {
    const UnitFacts* chosen = parses.front().facts.get();
    for (const auto& parse : parses)
      if (parse.serves(arch)) chosen = parse.facts.get();
    facts.push_back({arch, chosen});
  }
  return facts;
}

}  // namespace kl::analyzers
