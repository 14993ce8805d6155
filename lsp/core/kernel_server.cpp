#include "lsp/core/kernel_server.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <thread>

#include "analyzers/rules/rule_catalog.h"
#include "support/fs_paths.h"

namespace kl::lsp {

namespace {

JobKind job_kind(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::BuildToml:
      return JobKind::BuildToml;
    case DocumentKind::Skill:
      return JobKind::Skill;
    case DocumentKind::Source:
    case DocumentKind::Other:  // never scheduled
      break;
  }
  return JobKind::Source;
}

const char* kind_name(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::Source:
      return "kernel source";
    case DocumentKind::BuildToml:
      return "build.toml";
    case DocumentKind::Skill:
      return "SKILL.md";
    case DocumentKind::Other:
      break;
  }
  return "not analysed";
}

}  // namespace

DebouncePolicy debounce_policy(const Settings& settings) {
  DebouncePolicy policy;
  if (settings.debounce_ms) policy.fixed = std::chrono::milliseconds(*settings.debounce_ms);
  return policy;
}

SchedulerOptions scheduler_options(const Settings& settings) {
  SchedulerOptions options;
  size_t cores = std::max(1u, std::thread::hardware_concurrency());
  // At least two by default, even on a 2-core machine: one slow document (a 30 s CUTLASS
  // instantiation, or a hang until analysisTimeout) must not hold every other one back.
  options.workers = settings.workers ? std::max<size_t>(1, *settings.workers)
                                     : std::clamp<size_t>(cores / 2, 2, 4);
  options.debounce = debounce_policy(settings);
  return options;
}

KernelServer::KernelServer(std::unique_ptr<AnalysisBackend> backend, const Settings& settings,
                           KernelServerListener& listener)
    : backend_(std::move(backend)), listener_(listener), settings_(settings) {
  SchedulerCallbacks callbacks;
  callbacks.activity = [this](const AnalysisJob& job, bool begin) { listener_.on_activity(job, begin); };
  callbacks.results = [this](const std::shared_ptr<const AnalysisOutcome>& outcome) { on_result(outcome); };
  scheduler_ = std::make_unique<DocumentScheduler>(*backend_, scheduler_options(settings), callbacks);
}

KernelServer::~KernelServer() { stop(); }

void KernelServer::stop() { scheduler_->stop(); }

DocumentKind KernelServer::open(const std::filesystem::path& file, const std::string& language_id,
                                int64_t version, std::string text) {
  std::optional<std::filesystem::path> project = projects_.discover(file);
  Document document;
  document.path = file;
  document.language_id = language_id;
  document.version = version;
  document.text = std::make_shared<const std::string>(std::move(text));
  document.kind = classify_document(language_id, file, project.has_value());
  documents_.open(document);
  spdlog::info("opened {} as {} (build.toml: {})", file.string(), kind_name(document.kind),
               project ? project->string() : "none");
  if (document.kind == DocumentKind::Source) projects_.assign(file, project);
  if (document.kind != DocumentKind::Other) schedule(document, /*debounce=*/false);
  return document.kind;
}

bool KernelServer::change(const std::filesystem::path& file, int64_t version, std::string text) {
  auto shared = std::make_shared<const std::string>(std::move(text));
  if (!documents_.update(file, version, shared)) return false;
  std::optional<Document> document = documents_.get(file);
  if (!document || document->kind == DocumentKind::Other) return true;
  // The debounce saves parses. A skill check is a text scan of microseconds, and its findings
  // have always followed each edit at once.
  schedule(*document, /*debounce=*/document->kind != DocumentKind::Skill);
  if (document->kind == DocumentKind::BuildToml) relint_dependents(file, /*debounce=*/true);
  return true;
}

void KernelServer::close(const std::filesystem::path& file) {
  std::optional<Document> document = documents_.get(file);
  documents_.close(file);
  scheduler_->remove(file);
  projects_.remove(file);
  backend_->forget(file);
  // Dependents go back to the saved build.toml.
  if (document && document->kind == DocumentKind::BuildToml) relint_dependents(file, false);
}

void KernelServer::schedule(const Document& document, bool debounce) {
  AnalysisJob job;
  job.file = document.path;
  job.kind = job_kind(document.kind);
  job.version = document.version;
  job.text = document.text;
  if (job.kind == JobKind::Source) {
    if (auto toml = projects_.build_toml_of(document.path)) job.project = project_of_source(*toml);
  }
  if (job.kind == JobKind::BuildToml) last_parsed_.choose(document.path, document.text);
  scheduler_->update(std::move(job), debounce);
}

std::optional<ProjectSnapshot> KernelServer::project_of_source(const std::filesystem::path& build_toml) {
  std::optional<Document> open_toml = documents_.get(build_toml);
  std::shared_ptr<const std::string> current = open_toml ? open_toml->text : text_of(build_toml);
  LastParsedBuildTomls::Choice choice = last_parsed_.choose(build_toml, current);
  // The editor's unsaved copy, or the last version that parsed; else the analyzers read the disk.
  if (open_toml || choice.stand_in) return ProjectSnapshot{build_toml, choice.text};
  return std::nullopt;
}

std::shared_ptr<const AnalysisOutcome> KernelServer::noted(
    const std::shared_ptr<const AnalysisOutcome>& outcome) const {
  if (!outcome || outcome->job.kind != JobKind::Source || !outcome->job.project) return outcome;
  const ProjectSnapshot& project = *outcome->job.project;
  std::optional<std::string> note = last_parsed_.note_for(project.build_toml, project.text.get());
  if (!note) return outcome;
  auto copy = std::make_shared<AnalysisOutcome>(*outcome);
  copy->analysis = with_build_toml_note(std::move(copy->analysis), copy->job.file, *note);
  return copy;
}

void KernelServer::relint_dependents(const std::filesystem::path& build_toml, bool debounce) {
  for (const auto& source : projects_.dependents(build_toml))
    if (auto document = documents_.get(source)) schedule(*document, debounce);
}

void KernelServer::rediscover_projects() {
  for (const auto& document : documents_.all()) {
    if (document.kind != DocumentKind::Source) continue;
    auto found = projects_.discover(document.path);
    if (found != projects_.build_toml_of(document.path)) {
      projects_.assign(document.path, found);
      schedule(document, false);
    }
  }
}

void KernelServer::files_changed_on_disk(const std::vector<FileChange>& changes) {
  bool layout_changed = false;
  for (const auto& change : changes) {
    // A skill page changed: guidance is read again on next use.
    if (change.path.extension() == ".md") {
      std::lock_guard<std::mutex> lock(guidance_mutex_);
      guidance_.reset();
    }
    if (!is_build_toml(change.path)) continue;
    if (change.type != FileChangeType::Changed) layout_changed = true;
    // An open build.toml is the editor's copy; its edits were seen as they were typed.
    if (documents_.get(change.path)) continue;
    relint_dependents(change.path, false);
  }
  if (layout_changed) rediscover_projects();
}

std::vector<std::string> KernelServer::update_settings(const Settings& settings) {
  Settings previous;
  {
    std::lock_guard<std::mutex> lock(settings_mutex_);
    previous = settings_;
    settings_ = settings;
  }
  AnalysisSettingsConversion conversion = to_analysis_settings(settings);
  scheduler_->set_debounce(debounce_policy(settings));
  Settings analysis_part = settings, previous_part = previous;
  for (Settings* s : {&analysis_part, &previous_part}) {
    s->debounce_ms.reset();
    s->pull_diagnostics = false;
    s->workers.reset();
    s->analysis_timeout_s.reset();
  }
  if (analysis_part != previous_part) {
    spdlog::info("settings changed: rebuilding the analyzer and re-linting open documents");
    backend_->reconfigure(conversion.settings);
    // A skill check reads no analysis setting: its findings cannot have changed.
    for (const auto& document : documents_.all())
      if (document.kind == DocumentKind::Source || document.kind == DocumentKind::BuildToml)
        schedule(document, false);
  }
  return conversion.problems;
}

Settings KernelServer::settings() const {
  std::lock_guard<std::mutex> lock(settings_mutex_);
  return settings_;
}

std::optional<Document> KernelServer::document(const std::filesystem::path& file) const {
  return documents_.get(file);
}

std::shared_ptr<const std::string> KernelServer::text_of(const std::filesystem::path& file) const {
  if (auto text = documents_.text(file)) return text;
  if (auto disk = read_file_text(file)) return std::make_shared<const std::string>(std::move(*disk));
  return nullptr;
}

void KernelServer::with_analysis(const std::filesystem::path& file,
                                 std::function<void(ReadResult)> callback) {
  scheduler_->read(file, [this, callback = std::move(callback)](ReadResult read) {
    read.outcome = noted(read.outcome);
    callback(std::move(read));
  });
}

void KernelServer::on_result(const std::shared_ptr<const AnalysisOutcome>& outcome) {
  const AnalysisJob& job = outcome->job;
  if (job.kind == JobKind::Source && outcome->failure.empty() && !outcome->analysis.partial) {
    // The analyzers decide which build.toml applies; keep our guess when they found none, so
    // that adding this file to that build.toml still re-lints it.
    std::optional<std::filesystem::path> applied = outcome->analysis.build_toml;
    if (applied) {
      std::filesystem::path normal = applied->lexically_normal();
      std::optional<std::filesystem::path> previous = projects_.build_toml_of(job.file);
      if (previous != normal) {
        projects_.assign(job.file, normal);
        // Analysed against the disk copy while the editor holds another: once more.
        if (!job.project && documents_.get(normal))
          if (auto document = documents_.get(job.file)) schedule(*document, false);
      }
    }
  }
  listener_.on_analysis(noted(outcome));
}

std::vector<analyzers::Finding> document_findings(const AnalysisOutcome& outcome) {
  std::vector<analyzers::Finding> findings;
  const std::filesystem::path& file = outcome.job.file;
  for (const auto& finding : outcome.analysis.findings) {
    if (finding.location.file.empty() ||
        std::filesystem::path(finding.location.file).lexically_normal() == file) {
      findings.push_back(finding);
    } else {
      spdlog::debug("finding {} in {} is not in {}; not shown there", finding.rule_id,
                    finding.location.file, file.string());
    }
  }
  if (!outcome.failure.empty()) {
    analyzers::Finding note;
    note.rule_id = std::string(analyzers::kFrontend);
    note.severity = analyzers::Severity::Information;
    note.location.file = file.string();
    note.message = "kernel-lsp could not analyse this file: " + outcome.failure;
    findings.push_back(std::move(note));
  }
  return findings;
}

// ---- skills and snippets ----

void KernelServer::set_skill_roots(std::vector<std::filesystem::path> roots) {
  std::lock_guard<std::mutex> lock(guidance_mutex_);
  if (roots == skill_roots_ && guidance_) return;
  skill_roots_ = std::move(roots);
  guidance_.reset();
}

std::shared_ptr<const guidance::SkillGuidance> KernelServer::guidance() {
  std::lock_guard<std::mutex> lock(guidance_mutex_);
  if (!guidance_) {
    auto catalog = std::make_shared<const guidance::SkillCatalog>(guidance::SkillCatalog::discover(skill_roots_));
    spdlog::info("skills: {} found; guidance from {}", catalog->skills().size(),
                 catalog->find(guidance::kCudaKernelsSkill) ? catalog->find(guidance::kCudaKernelsSkill)->folder().string()
                                                  : std::string("nowhere (no cuda-kernels skill)"));
    guidance_ = std::make_shared<const guidance::SkillGuidance>(std::move(catalog), guidance::ConstructTable::bundled());
  }
  return guidance_;
}

}  // namespace kl::lsp
