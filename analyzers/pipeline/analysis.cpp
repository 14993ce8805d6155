#include "analyzers/pipeline/analysis.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <thread>

#include "analyzers/data/arch_table.h"
#include "analyzers/data/feature_table.h"
#include "analyzers/frontend/clang_command.h"
#include "analyzers/frontend/compile_database.h"
#include "analyzers/frontend/cuda_toolkit.h"
#include "analyzers/frontend/preamble_cache.h"
#include "analyzers/frontend/cutlass_headers.h"
#include "analyzers/frontend/toolkit_pch.h"
#include "analyzers/frontend/torch_headers.h"
#include "analyzers/pipeline/arch_parses.h"
#include "analyzers/pipeline/configuration_memory.h"
#include "analyzers/pipeline/stage_timer.h"
#include "analyzers/pipeline/target_archs.h"
#include "analyzers/rules/frontend.h"
#include "analyzers/rules/rule_catalog.h"
#include "analyzers/rules/rule_input.h"
#include "analyzers/suppression.h"
#include "support/crash_stage.h"

namespace kl::analyzers {
namespace fs = std::filesystem;

// Headers of libraries kernel files include that the project does not carry, found once.
struct LibraryHeaders {
  std::vector<std::string> torch_flags;  // -isystem for PyTorch's headers or the stand-in
  std::optional<CutlassHeaders> cutlass;
};

struct Analyzer::State {
  AnalysisSettings settings;
  std::once_flag toolkit_once;
  std::optional<CudaToolkit> toolkit;
  std::string toolkit_problem;
  PreambleCache preambles;
  std::unique_ptr<ToolkitPchStore> toolkit_pchs;  // null when settings.shared_pch is off
  std::unique_ptr<ParallelRunner> configurations;  // null when settings.configuration_threads <= 1
  // What the last analysis of each file learnt about its configurations (server only:
  // settings.cache_parses), newest last.
  std::mutex memories_mutex;
  std::deque<std::pair<std::string, ConfigurationMemory>> memories;

  std::optional<std::vector<size_t>> known_configurations(
      const std::string& file, std::string_view text, const std::vector<std::string>& command,
      const std::vector<Capability>& archs, MacroNames& macro_names,
      std::optional<std::vector<ConfigurationEvents>>& events) {
    std::lock_guard lock(memories_mutex);
    for (auto it = memories.begin(); it != memories.end(); ++it) {
      if (it->first != file) continue;
      auto known = analyzers::known_configurations(it->second, text, command, archs);
      // Taken, not copied: this analysis remembers them again when it completes, and one that
      // is cancelled leaves no memory behind (the next one preprocesses).
      if (known) {
        macro_names = std::move(it->second.macro_names);
        events = events_after_edit(it->second, text);
      }
      memories.erase(it);
      return known;
    }
    return std::nullopt;
  }

  void remember(const std::string& file, ConfigurationMemory memory) {
    constexpr size_t kRemembered = 8;  // the files being edited; each holds its text and ~15k macro names
    std::lock_guard lock(memories_mutex);
    std::erase_if(memories, [&](const auto& entry) { return entry.first == file; });
    memories.emplace_back(file, std::move(memory));
    if (memories.size() > kRemembered) memories.pop_front();
  }
  std::thread toolkit_finder;  // find_toolkit_(and_libraries_)in_background(); joined by ~Analyzer
  std::once_flag libraries_once;
  LibraryHeaders libraries;

  const CudaToolkit* find_toolkit() {
    std::call_once(toolkit_once, [&] {
      auto found = find_cuda_toolkit(settings.cuda_path);
      if (found) toolkit = *found;
      else toolkit_problem = found.error().describe();
    });
    return toolkit ? &*toolkit : nullptr;
  }

  // PyTorch's headers for torch-style files (the real ones when found, else kernel-lsp's
  // stand-in) and CUTLASS, looked up once per Analyzer: the torch lookup may ask python3.
  const LibraryHeaders& find_libraries() {
    std::call_once(libraries_once, [&] {
      TorchHeaderQuery query;
      query.explicit_dirs = settings.torch_include_path;
      libraries.torch_flags = torch_include_flags(find_torch_headers(query), default_torch_standin_dir());
      libraries.cutlass = find_cutlass_headers(settings.cutlass_path);
    });
    return libraries;
  }

  // Stage "toolkit": the toolkit (looked up once per Analyzer); without one, a warning that
  // device code is analysed without CUDA's headers.
  const CudaToolkit* toolkit_stage(const std::string& file_name, FileAnalysis& result) {
    StageTimer timer;
    const CudaToolkit* found = find_toolkit();
    timer.record(result.timings, "toolkit");
    if (!found) {
      std::string message = toolkit_problem +
                            ". Device code is analysed without CUDA's headers, "
                            "so findings that need them are missing.";
      result.findings.push_back(
          frontend_finding({file_name, Range{}}, std::move(message), Severity::Warning));
    }
    return found;
  }
};

namespace {

// Stage "project": the build.toml that applies and the archs to analyse for, into `result`;
// when no arch is left, a finding that says so (and the analysis stops there).
TargetArchs project_stage(const fs::path& file, const BuildConfigParse* project,
                          const AnalysisSettings& settings, const CudaToolkit* toolkit,
                          const CompileFlags* compile_flags, FileAnalysis& result) {
  StageTimer timer;
  TargetArchs targets = select_target_archs(file, project, settings, toolkit, compile_flags);
  result.build_toml = targets.build_toml;
  result.archs = targets.selection;
  timer.record(result.timings, "project");
  if (result.archs.archs.empty()) {
    result.findings.push_back(
        frontend_finding({file.string(), Range{}},
                         "no target architecture left to analyse for (" + result.archs.origin +
                             " lists none the toolkit can build); see arch-unsupported in build.toml"));
  }
  return targets;
}

// Stage "command line": the clang command's inputs other than the arch. CUDA's headers (none
// without a toolkit), the shims, clang's resource dir, the toolkit's version for nvcc's version
// macros (13.0, the version the project stage assumes, when it is unknown), the flags
// compile_commands.json gives the file (when allowed and found), build.toml's include folders
// for the file, extraFlags.
ClangCommandInputs command_line_stage(const fs::path& file, const AnalysisSettings& settings,
                                      const CudaToolkit* toolkit, const TargetArchs& targets,
                                      const LibraryHeaders& libraries, const CompileFlags* compile_flags) {
  ClangCommandInputs inputs;
  inputs.file = file;
  if (toolkit) inputs.cuda_root = toolkit->root;
  if (toolkit && toolkit->version_major > 0)
    inputs.nvcc_version = NvccVersion{toolkit->version_major, toolkit->version_minor, std::nullopt};
  inputs.build_toml_include_dirs = targets.include_dirs;
  inputs.shim_dir = default_shim_dir();
  inputs.resource_dir = default_resource_dir();
  inputs.extra_flags = settings.extra_flags;
  if (!toolkit) inputs.extra_flags.push_back("-nocudainc");
  if (compile_flags) {
    inputs.compile_database = compile_flags->database;
    inputs.project_flags = compile_flags->args;
  }
  // CUTLASS where the project's flags do not already reach one.
  std::vector<std::string> reached = inputs.project_flags;
  reached.insert(reached.end(), inputs.extra_flags.begin(), inputs.extra_flags.end());
  for (const auto& dir : inputs.build_toml_include_dirs) reached.push_back("-I" + dir.string());
  std::vector<std::string> cutlass = cutlass_include_flags(libraries.cutlass, reached);
  inputs.extra_flags.insert(inputs.extra_flags.end(), cutlass.begin(), cutlass.end());
  // PyTorch's headers (or the stand-in) last, so that the project's and the user's own include
  // folders win; none when either already reaches a torch.
  if (!include_flags_reach_torch(inputs.project_flags) && !include_flags_reach_torch(inputs.extra_flags))
    inputs.extra_flags.insert(inputs.extra_flags.end(), libraries.torch_flags.begin(), libraries.torch_flags.end());
  return inputs;
}

// What every arch's parse shares: the command line, the model's options, and the preamble cache
// when parses are cached.
ParseRequest parse_request(const fs::path& file, std::string_view text, const AnalysisSettings& settings,
                           const CudaToolkit* toolkit, const TargetArchs& targets,
                           const LibraryHeaders& libraries, const CompileFlags* compile_flags,
                           PreambleCache* preambles, ToolkitPchStore* toolkit_pchs,
                           ParallelRunner* configurations, const CancellationToken* cancel) {
  return ParseRequest{.file = file,
                      .text = text,
                      .command = command_line_stage(file, settings, toolkit, targets, libraries, compile_flags),
                      .features = &FeatureTable::builtin(),
                      .model = ModelOptions{settings.assumed_pointer_alignment},
                      .preambles = settings.cache_parses ? preambles : nullptr,
                      .toolkit_pchs = toolkit_pchs,
                      .cancel = cancel,
                      .parallel = configurations};
}

// Stage "rules": every source rule of the catalog that is not disabled, in catalog order, over
// the facts of each target arch.
void rules_stage(const std::string& file_name, std::string_view text, const TargetArchs& targets,
                 const std::vector<Capability>& archs, const std::vector<ArchParse>& parses,
                 const AnalysisSettings& settings, FileAnalysis& result) {
  StageTimer timer;
  SourceInput input;
  input.file = file_name;
  input.text = text;
  input.origins = targets.origins;
  input.arch_origin = result.archs.origin;
  input.capability_list = result.archs.origin_location;
  input.archs_assumed = result.archs.assumed;
  input.archs = &ArchTable::builtin();
  input.features = &FeatureTable::builtin();
  input.targets = facts_per_target(archs, parses);
  for (const Rule* rule : rule_catalog()) {
    if (!rule->source_check || settings.disabled_rules.count(std::string(rule->id))) continue;
    rule->source_check(input, result.findings);
  }
  timer.record(result.timings, "rules");
}

// A suppression comment that names no rule suppresses nothing, silently: say so where it is
// written (a warning, since what the user meant to hide is shown and what they wrote is ignored).
void report_unknown_suppression_ids(const Suppressions& suppressions, const std::string& file,
                                    std::vector<Finding>& findings) {
  for (const Suppressions::WrittenId& written : suppressions.written_ids()) {
    if (written.id == "*") continue;
    std::string problem = unknown_rule_problem(written.id);
    if (problem.empty()) continue;
    findings.push_back(frontend_finding(Location{file, written.range},
                                        "this suppression comment has no effect: " + problem,
                                        Severity::Warning));
  }
}

// The last step of every analysis: drop the findings of disabled rules, apply severity overrides
// and suppression comments, and sort by position (stably: findings at one place keep the order
// they were made in).
void settle_findings(const AnalysisSettings& settings, std::string_view text, const std::string& file,
                     std::vector<Finding>& findings) {
  findings.erase(
      std::remove_if(findings.begin(), findings.end(),
                     [&](const Finding& f) { return settings.disabled_rules.count(f.rule_id) > 0; }),
      findings.end());
  for (auto& f : findings) {
    if (auto it = settings.severity_overrides.find(f.rule_id); it != settings.severity_overrides.end())
      f.severity = it->second;
  }
  const Suppressions suppressions(text);  // read once: for what they hide and what they name
  apply_suppressions(suppressions, file, findings);
  report_unknown_suppression_ids(suppressions, file, findings);
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.location.file != b.location.file) return a.location.file < b.location.file;
    return a.location.range.start < b.location.range.start;
  });
}

// What the first parse alone shows (PartialAnalysisSink): what `so_far` knows of the analysis,
// the rules over the archs the first parse serves, and the rest of the archs as pending.
FileAnalysis first_configuration_result(const std::string& file_name, std::string_view text,
                                        const TargetArchs& targets, const std::vector<ArchParse>& first,
                                        const AnalysisSettings& settings, const FileAnalysis& so_far) {
  FileAnalysis early;
  early.findings = so_far.findings;
  early.timings = so_far.timings;
  early.archs = so_far.archs;
  early.build_toml = so_far.build_toml;
  early.missing_headers = so_far.missing_headers;
  early.clang_errors = so_far.clang_errors;
  early.first_clang_error = so_far.first_clang_error;
  early.first_clang_error_location = so_far.first_clang_error_location;
  early.inputs = so_far.inputs;
  report_incomplete_parse(text, file_name, early);
  std::vector<Capability> served = served_archs(so_far.archs.archs, first);
  rules_stage(file_name, text, targets, served, first, settings, early);
  settle_findings(settings, text, file_name, early.findings);
  early.facts = *first.front().facts;
  early.coverage = coverage_of(early.facts);
  early.partial = true;
  for (const Capability& arch : so_far.archs.archs)
    if (std::find(served.begin(), served.end(), arch) == served.end()) early.archs_pending.push_back(arch);
  return early;
}

}  // namespace

Analyzer::Analyzer(AnalysisSettings settings) : state_(std::make_unique<State>()) {
  state_->settings = std::move(settings);
  if (state_->settings.shared_pch) state_->toolkit_pchs = std::make_unique<ToolkitPchStore>(state_->settings.pch_dir);
  if (state_->settings.configuration_threads > 1)
    state_->configurations = std::make_unique<ParallelRunner>(state_->settings.configuration_threads - 1);
}
Analyzer::~Analyzer() {
  if (state_->toolkit_finder.joinable()) state_->toolkit_finder.join();
}

void Analyzer::find_toolkit_in_background() {
  if (state_->toolkit_finder.joinable()) return;
  state_->toolkit_finder = std::thread([state = state_.get()] { state->find_toolkit(); });
}

void Analyzer::find_toolkit_and_libraries_in_background() {
  if (state_->toolkit_finder.joinable()) return;
  state_->toolkit_finder = std::thread([state = state_.get()] {
    state->find_toolkit();
    (void)state->find_libraries();
  });
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
  settle_findings(state_->settings, text, file.string(), findings);
  return findings;
}

// The stages, in order. Each CrashStage marker stays up until the analysis ends or the next
// marker replaces it, so the work between two markers (the command line, carrying uses over)
// is reported under the one before it; each parse raises "the clang parse" for itself.
FileAnalysis Analyzer::analyze_source(const fs::path& file_in, std::string_view text,
                                      const CancellationToken* cancel, const BuildConfigParse* project,
                                      const PartialAnalysisSink& partial) {
  FileAnalysis result;
  const AnalysisSettings& settings = state_->settings;
  std::error_code ec;
  const fs::path file = fs::absolute(file_in, ec).lexically_normal();
  const std::string file_name = file.string();

  CrashStage toolkit_marker("the toolkit lookup");
  const CudaToolkit* toolkit = state_->toolkit_stage(file_name, result);

  CrashStage project_marker("the build.toml reader");
  // The file's compile_commands.json entry, read once: its flags shape the parse, and its arch
  // flags declare the targets when no build.toml does.
  std::optional<CompileFlags> compile_flags;
  if (settings.use_compile_commands)
    if (auto database = find_compile_database(file)) compile_flags = flags_from_database(*database, file);
  const CompileFlags* flags = compile_flags ? &*compile_flags : nullptr;
  TargetArchs targets = project_stage(file, project, settings, toolkit, flags, result);
  if (result.build_toml) result.inputs.push_back(result.build_toml->string());
  for (const auto& read : targets.build_files_read) result.inputs.push_back(read.string());
  if (result.archs.archs.empty()) return result;

  ParseRequest request = parse_request(file, text, settings, toolkit, targets, state_->find_libraries(), flags,
                                       &state_->preambles, state_->toolkit_pchs.get(),
                                       state_->configurations.get(), cancel);
  if (request.command.compile_database) result.inputs.push_back(request.command.compile_database->string());
  // In the server, an edit that cannot change which archs share a configuration reuses the
  // last analysis's answer (configuration_memory.h).
  const std::vector<Capability> parse_order = parse_order_of(result.archs.archs);
  const std::vector<std::string> first_command = device_parse_command(request.command, parse_order.front());
  MacroNames macro_names;
  if (settings.cache_parses) {
    request.known_configurations = state_->known_configurations(file_name, text, first_command, parse_order,
                                                                macro_names, request.known_events);
    // Gathering every macro name costs a walk of the whole macro table per configuration: only
    // when the names may have changed (an edit that keeps configurations writes no directive).
    if (!request.known_configurations) request.macro_names = &macro_names;
  }
  auto publish_first = [&](const std::vector<ArchParse>& first) {
    if (partial) partial(first_configuration_result(file_name, text, targets, first, settings, result));
  };
  std::vector<ArchParse> parses = parse_arch_by_arch(request, result.archs.archs, result, publish_first);
  if (result.cancelled || parses.empty()) return result;
  if (settings.cache_parses && parses.front().facts->arch_dependent)
    state_->remember(file_name, {std::string(text), first_command, parse_order,
                                 configurations_of(parse_order, parses), std::move(macro_names),
                                 events_of_other_configurations(parses), stamps_of(result.inputs)});
  carry_uses_over_error_lines(parses);
  report_incomplete_parse(text, file_name, result);

  CrashStage rules_marker("the rules");
  rules_stage(file_name, text, targets, result.archs.archs, parses, settings, result);
  settle_findings(settings, text, file_name, result.findings);
  result.facts = std::move(*parses.front().facts);
  result.coverage = coverage_of(result.facts);
  return result;
}

}  // namespace kl::analyzers
