#include "analyzers/pipeline/analysis.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "analyzers/data/arch_table.h"
#include "analyzers/data/feature_table.h"
#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/compile_database.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/frontend/device_parser.h"
#include "analyzers/frontend/preamble_cache.h"
#include "analyzers/model/facts_builder.h"
#include "support/crash_stage.h"
#include "analyzers/project/project_locator.h"
#include "analyzers/rules/arch_unsupported.h"
#include "analyzers/rules/rule_catalog.h"
#include "analyzers/rules/rule_input.h"
#include "analyzers/suppression.h"
#include "support/fs_paths.h"
#include "support/line_index.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

struct Analyzer::State {
  AnalysisSettings settings;
  std::once_flag toolkit_once;
  std::optional<CudaToolkit> toolkit;
  std::string toolkit_problem;
  PreambleCache preambles;
  std::thread toolkit_finder;  // find_toolkit_in_background(); joined by ~Analyzer

  const CudaToolkit* find_toolkit() {
    std::call_once(toolkit_once, [&] {
      auto found = find_cuda_toolkit(settings.cuda_path);
      if (found) toolkit = *found;
      else toolkit_problem = found.error().describe();
    });
    return toolkit ? &*toolkit : nullptr;
  }
};

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Order archs so that the most capable comes first: its parse declares the most (e.g.
// __reduce_add_sync exists only from 8.0), which makes it the best single parse.
bool more_capable(const Capability& a, const Capability& b) {
  if (a.number() != b.number()) return a.number() > b.number();
  return static_cast<int>(a.variant) > static_cast<int>(b.variant);
}

Finding frontend_finding(const std::string& file, Range range, std::string message,
                         Severity severity = Severity::Information) {
  Finding f;
  f.rule_id = std::string(kFrontend);
  f.severity = severity;
  f.location = {file, range};
  f.message = std::move(message);
  f.help_uri = rule_help_uri(kFrontend);
  return f;
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

void apply_settings(const AnalysisSettings& settings, std::vector<Finding>& findings) {
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [&](const Finding& f) { return settings.disabled_rules.count(f.rule_id) > 0; }),
                 findings.end());
  for (auto& f : findings) {
    if (auto it = settings.severity_overrides.find(f.rule_id); it != settings.severity_overrides.end())
      f.severity = it->second;
  }
}

void sort_findings(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.location.file != b.location.file) return a.location.file < b.location.file;
    return a.location.range.start < b.location.range.start;
  });
}

}  // namespace

Analyzer::Analyzer(AnalysisSettings settings) : state_(std::make_unique<State>()) {
  state_->settings = std::move(settings);
}
Analyzer::~Analyzer() {
  if (state_->toolkit_finder.joinable()) state_->toolkit_finder.join();
}

void Analyzer::find_toolkit_in_background() {
  if (state_->toolkit_finder.joinable()) return;
  state_->toolkit_finder = std::thread([state = state_.get()] { state->find_toolkit(); });
}

const AnalysisSettings& Analyzer::settings() const { return state_->settings; }

std::string Analyzer::toolkit_description() const {
  const CudaToolkit* toolkit = state_->find_toolkit();
  if (!toolkit) return state_->toolkit_problem;
  return "CUDA " + toolkit->version_text() + " at " + toolkit->root.string() + " (found by " + toolkit->found_by + ")";
}

void Analyzer::forget(const fs::path& file) { state_->preambles.forget(file.string()); }
void Analyzer::forget_all() { state_->preambles.clear(); }

std::vector<Finding> Analyzer::analyze_build_toml(const fs::path& file, std::string_view text) {
  BuildConfigParse parsed = parse_build_toml(file, text);
  BuildTomlInput input;
  input.parse = &parsed;
  input.archs = &ArchTable::builtin();
  // Only a readable build.toml has capabilities for the toolkit to judge.
  input.toolkit = parsed.config ? state_->find_toolkit() : nullptr;
  std::vector<Finding> findings;
  for (const Rule* rule : rule_catalog()) {
    if (!rule->build_toml_check || state_->settings.disabled_rules.count(std::string(rule->id))) continue;
    rule->build_toml_check(input, findings);
  }
  apply_settings(state_->settings, findings);
  apply_suppressions(text, file.string(), findings);
  sort_findings(findings);
  return findings;
}

FileAnalysis Analyzer::analyze_source(const fs::path& file_in, std::string_view text,
                                      const CancellationToken* cancel, const BuildConfigParse* project) {
  FileAnalysis result;
  const AnalysisSettings& settings = state_->settings;
  std::error_code ec;
  fs::path file = fs::absolute(file_in, ec).lexically_normal();
  std::string file_name = file.string();

  // 1. Toolkit
  CrashStage stage("the toolkit lookup");
  auto started = Clock::now();
  const CudaToolkit* toolkit = state_->find_toolkit();
  result.timings.push_back({"toolkit", since(started)});
  if (!toolkit) {
    result.findings.push_back(frontend_finding(
        file_name, Range{}, state_->toolkit_problem + ". Device code is analysed without CUDA's headers, "
                            "so findings that need them are missing.", Severity::Warning));
  }

  // 2. Project: build.toml and the target archs
  CrashStage project_stage("the build.toml reader");
  started = Clock::now();
  std::optional<BuildConfigParse> own_parse;
  const BuildConfigParse* config_parse = project;
  if (!config_parse) {
    if (auto toml = find_build_toml(file)) {
      if (auto toml_text = read_file_text(*toml)) {
        own_parse = parse_build_toml(*toml, *toml_text);
        config_parse = &*own_parse;
      }
    }
  }
  const BuildConfig* config = config_parse && config_parse->config ? &*config_parse->config : nullptr;
  if (config) result.build_toml = config->file;
  int cuda_major = toolkit ? toolkit->version_major : 13;
  int cuda_minor = toolkit ? toolkit->version_minor : 0;

  std::vector<ArchOrigin> origins;
  std::optional<Location> capability_list;
  if (!settings.arch_override.empty()) {
    for (const auto& c : settings.arch_override) origins.push_back({c, std::nullopt});
    result.archs.origin = "--arch";
  } else if (config) {
    SourceCapabilities caps = capabilities_for_source(*config, file, cuda_major, cuda_minor);
    for (const auto& entry : caps.entries)
      if (entry.capability) origins.push_back({*entry.capability, Location{config->file.string(), entry.range}});
    if (caps.list_range) capability_list = Location{config->file.string(), *caps.list_range};
    result.archs.origin = "build.toml";
    result.archs.origin_location = capability_list;
  } else if (!settings.default_archs.empty()) {
    for (const auto& c : settings.default_archs) origins.push_back({c, std::nullopt});
    result.archs.origin = "the configured default archs";
  } else {
    for (const auto& c : builder_default_capabilities(cuda_major, cuda_minor)) origins.push_back({c, std::nullopt});
    result.archs.origin = "the kernel-builder default list for CUDA " + std::to_string(cuda_major) + "." +
                          std::to_string(cuda_minor) + " (no build.toml found)";
  }
  // Unknown or untargetable archs are arch-unsupported's business (in build.toml); analysing
  // for them would only repeat that.
  std::vector<Capability> targets;
  for (const auto& origin : origins) {
    if (!capability_is_usable(origin.arch, ArchTable::builtin(), toolkit)) continue;
    if (std::find(targets.begin(), targets.end(), origin.arch) == targets.end()) targets.push_back(origin.arch);
  }
  result.archs.archs = targets;
  result.timings.push_back({"project", since(started)});
  if (targets.empty()) {
    result.findings.push_back(frontend_finding(
        file_name, Range{}, "no target architecture left to analyse for (" + result.archs.origin +
                                " lists none the toolkit can build); see arch-unsupported in build.toml"));
    return result;
  }

  // 3. Command line
  ClangCommandInputs inputs;
  inputs.file = file;
  if (toolkit) inputs.cuda_root = toolkit->root;
  inputs.shim_dir = default_shim_dir();
  inputs.resource_dir = default_resource_dir();
  inputs.extra_flags = settings.extra_flags;
  if (!toolkit) inputs.extra_flags.push_back("-nocudainc");
  if (settings.use_compile_commands) {
    if (auto database = find_compile_database(file)) {
      if (auto flags = flags_from_database(*database, file)) inputs.project_flags = flags->args;
    }
  }

  // 4. Parse: the most capable arch first; the others only when the user's code tests the arch.
  std::vector<Capability> parse_order = targets;
  std::stable_sort(parse_order.begin(), parse_order.end(), more_capable);
  const FeatureTable& features = FeatureTable::builtin();
  std::vector<std::string> watched_macros;
  for (const auto& f : features.all())
    if (f.kind == FeatureKind::Macro) watched_macros.insert(watched_macros.end(), f.names.begin(), f.names.end());

  std::vector<std::pair<Capability, std::unique_ptr<UnitFacts>>> parsed;
  std::vector<std::set<std::pair<std::string, uint32_t>>> error_lines;  // per parse
  bool arch_dependent = true;
  for (const Capability& arch : parse_order) {
    if (!parsed.empty() && !arch_dependent) break;
    if (cancel && cancel->is_cancelled()) {
      result.cancelled = true;
      return result;
    }
    started = Clock::now();
    auto facts = std::make_unique<UnitFacts>();
    auto argv = device_parse_command(inputs, arch);
    CrashStage parse_stage("the clang parse");
    auto outcome = parse_device_side(
        argv, file, text,
        [&](clang::ASTContext& context, const SourceView& view) {
          build_unit_facts(context, view, features, ModelOptions{settings.assumed_pointer_alignment}, *facts);
        },
        watched_macros, cancel, settings.cache_parses ? &state_->preambles : nullptr);
    result.timings.push_back({"parse " + arch.sm_name(), since(started)});
    if (!outcome) {
      if (cancel && cancel->is_cancelled()) {
        result.cancelled = true;
        return result;
      }
      result.findings.push_back(frontend_finding(file_name, Range{}, outcome.error().describe(), Severity::Warning));
      break;
    }
    add_preprocessor_facts(*outcome, features, *facts);
    std::set<std::pair<std::string, uint32_t>> lines_with_errors;
    for (const auto& error : outcome->errors) lines_with_errors.emplace(error.location.file, error.location.range.start.line);
    error_lines.push_back(std::move(lines_with_errors));
    facts->arch_dependent = outcome->arch_dependent;
    if (parsed.empty()) {
      arch_dependent = outcome->arch_dependent;
      for (const auto& header : outcome->missing_headers) {
        if (std::find(result.missing_headers.begin(), result.missing_headers.end(), header) ==
            result.missing_headers.end())
          result.missing_headers.push_back(header);
      }
      if (!outcome->errors.empty() && outcome->errors.size() >= 20) {
        result.findings.push_back(frontend_finding(
            file_name, outcome->errors.front().location.range,
            "clang reported " + std::to_string(outcome->errors.size()) + " errors in this file (first: " +
                outcome->errors.front().message + "); findings may be incomplete."));
      }
    }
    parsed.emplace_back(arch, std::move(facts));
  }
  if (parsed.empty()) return result;
  // A call that only the most capable arch's headers declare (bf16 __hfma below 8.0) does not
  // resolve in a less capable arch's parse, so that parse shows an error instead of the use.
  // Where the error sits on the use's line, the use is active there too.
  for (size_t i = 1; i < parsed.size(); ++i) {
    UnitFacts& facts = *parsed[i].second;
    for (const auto& use : parsed.front().second->feature_uses) {
      if (!error_lines[i].count({use.location.file, use.location.range.start.line})) continue;
      bool present = std::any_of(facts.feature_uses.begin(), facts.feature_uses.end(), [&](const FeatureUse& u) {
        return u.feature_id == use.feature_id && u.location == use.location;
      });
      if (!present) facts.feature_uses.push_back(use);
    }
  }
  for (const auto& header : result.missing_headers) {
    result.findings.push_back(frontend_finding(
        file_name, include_line_of(text, header),
        "`" + header + "` was not found; device code that does not depend on it is still analysed. "
        "Add its include path (compile_commands.json, or the extraFlags setting) for complete results."));
  }

  // 5. Rules
  CrashStage rules_stage("the rules");
  started = Clock::now();
  SourceInput input;
  input.file = file_name;
  input.text = text;
  input.origins = origins;
  input.arch_origin = result.archs.origin;
  input.capability_list = capability_list;
  input.archs = &ArchTable::builtin();
  input.features = &features;
  for (const Capability& arch : targets) {
    const UnitFacts* facts = parsed.front().second.get();
    for (const auto& [parsed_arch, parsed_facts] : parsed)
      if (parsed_arch == arch) facts = parsed_facts.get();
    input.targets.push_back({arch, facts});
  }
  for (const Rule* rule : rule_catalog()) {
    if (!rule->source_check || settings.disabled_rules.count(std::string(rule->id))) continue;
    rule->source_check(input, result.findings);
  }
  result.timings.push_back({"rules", since(started)});

  apply_settings(settings, result.findings);
  apply_suppressions(text, file_name, result.findings);
  sort_findings(result.findings);
  result.facts = std::move(*parsed.front().second);
  return result;
}

}  // namespace kl::analyzers
