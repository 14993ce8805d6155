#include "analyzers/pipeline/arch_parses.h"

#include <algorithm>
#include <optional>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/frontend/preamble_cache.h"
#include "analyzers/model/facts_builder.h"
#include "analyzers/pipeline/stage_timer.h"
#include "analyzers/rules/frontend.h"
#include "support/crash_stage.h"
#include "support/line_index.h"

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

// One arch's parse, with its timing. Empty when the parse failed: then a warning, or, when it
// failed because `cancel` fired, result.cancelled.
std::optional<ArchParse> parse_for_arch(const ParseRequest& request, const Capability& arch,
                                        const std::vector<std::string>& watched, bool first,
                                        FileAnalysis& result) {
  StageTimer timer;
  auto facts = std::make_unique<UnitFacts>();
  auto argv = device_parse_command(request.command, arch);
  CrashStage parse_stage("the clang parse");
  auto outcome = parse_device_side(
      argv, request.file, request.text,
      [&](clang::ASTContext& context, const SourceView& view) {
        build_unit_facts(context, view, *request.features, request.model, *facts);
      },
      watched, request.cancel, request.preambles, request.toolkit_pchs);
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
  ArchParse parse{arch, std::move(facts), {}, outcome->signature, {}};
  for (const auto& error : outcome->errors)
    parse.error_lines.emplace(error.location.file, error.location.range.start.line);
  parse.facts->arch_dependent = outcome->arch_dependent;
  if (first) note_first_parse(*outcome, request.file.string(), result);
  return parse;
}

// The parse whose configuration `arch`'s preprocessing reproduces, if any; null when none does
// or the preprocessing failed (then `arch` is parsed: a parse is never skipped on a guess).
ArchParse* parse_with_same_configuration(const ParseRequest& request, const Capability& arch,
                                         const std::vector<std::string>& watched, std::vector<ArchParse>& parses,
                                         FileAnalysis& result) {
  StageTimer timer;
  CrashStage stage("the preprocessor");
  const std::vector<std::string> argv = device_parse_command(request.command, arch);
  auto signature =
      preprocess_signature(argv, request.file, request.text, request.cancel, request.preambles, request.toolkit_pchs);
  timer.record(result.timings, "preprocess " + arch.sm_name());
  if (!signature) return nullptr;
  for (ArchParse& parse : parses) {
    if (parse.signature != *signature) continue;
    // Not parsed: its preamble serves the next edit's check of this arch.
    if (request.preambles) warm_preamble(argv, request.file, request.text, *request.preambles, watched);
    return &parse;
  }
  return nullptr;
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

std::vector<ArchParse> parse_arch_by_arch(const ParseRequest& request, const std::vector<Capability>& targets,
                                          FileAnalysis& result, const FirstParseHook& after_first) {
  std::vector<Capability> parse_order = targets;
  std::stable_sort(parse_order.begin(), parse_order.end(), more_capable);
  const std::vector<std::string> watched = watched_macros(*request.features);
  std::vector<ArchParse> parses;
  if (parse_order.empty() || is_cancelled(request.cancel)) {
    result.cancelled = is_cancelled(request.cancel);
    return parses;
  }
  std::optional<ArchParse> first = parse_for_arch(request, parse_order.front(), watched, true, result);
  if (!first) return parses;
  bool arch_dependent = first->facts->arch_dependent;
  parses.push_back(std::move(*first));
  if (!arch_dependent || parse_order.size() == 1) return parses;
  if (after_first) after_first(parses);
  for (size_t i = 1; i < parse_order.size(); ++i) {
    const Capability& arch = parse_order[i];
    if (is_cancelled(request.cancel)) {
      result.cancelled = true;
      break;
    }
    if (ArchParse* same = parse_with_same_configuration(request, arch, watched, parses, result)) {
      same->also_serves.push_back(arch);
      continue;
    }
    if (is_cancelled(request.cancel)) {
      result.cancelled = true;
      break;
    }
    std::optional<ArchParse> parse = parse_for_arch(request, arch, watched, false, result);
    if (!parse) break;
    parses.push_back(std::move(*parse));
  }
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
