#pragma once
// The editor-agnostic server (clangd's ClangdServer): documents in, findings and feature data
// out, in paths and UTF-8 positions. No JSON, no LSP types; the LSP layer (lsp/server) drives
// it and converts.
//
// It owns the workspace state (open documents, which build.toml applies to which file, the
// settings) and the scheduler. What it guarantees:
//  - every open kernel source and build.toml is analysed after open and after each edit
//    (debounced), and every open SKILL.md checked (at once: the check costs no parse); the
//    newest findings of each reach the listener;
//  - an edit to a build.toml (open in the editor, or saved on disk while not open) re-lints the
//    open files that depend on it, against the editor's unsaved copy when there is one;
//  - a settings change rebuilds the Analyzer and re-lints every open kernel source and build.toml;
//  - while a build.toml does not parse, its sources are analysed against the last version of it
//    that parsed (last_parsed_build_toml.h), and their results say so.
//
// Threading: open/change/close/settings/file events on the I/O thread; with_analysis from any
// thread; listener calls arrive on worker threads. stop() before destruction ends all work.
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lsp/core/last_parsed_build_toml.h"
#include "lsp/scheduler/analysis_backend.h"
#include "lsp/scheduler/document_scheduler.h"
#include "lsp/workspace/document_store.h"
#include "lsp/workspace/project_index.h"
#include "lsp/workspace/settings.h"
#include "guidance/skill_guidance.h"

namespace kl::lsp {

class KernelServerListener {
 public:
  virtual ~KernelServerListener() = default;
  // The newest analysis of an open document (worker thread).
  virtual void on_analysis(const std::shared_ptr<const AnalysisOutcome>& outcome) = 0;
  // An analysis starts or ends (worker thread); for progress reports.
  virtual void on_activity(const AnalysisJob& /*job*/, bool /*begin*/) {}
};

enum class FileChangeType { Created = 1, Changed = 2, Deleted = 3 };  // LSP's numbering

struct FileChange {
  std::filesystem::path path;
  FileChangeType type = FileChangeType::Changed;
};

class KernelServer {
 public:
  KernelServer(std::unique_ptr<AnalysisBackend> backend, const Settings& settings,
               KernelServerListener& listener);
  ~KernelServer();
  KernelServer(const KernelServer&) = delete;
  KernelServer& operator=(const KernelServer&) = delete;

  // Returns the kind it was classified as (Other: tracked, not analysed).
  DocumentKind open(const std::filesystem::path& file, const std::string& language_id,
                    int64_t version, std::string text);
  bool change(const std::filesystem::path& file, int64_t version, std::string text);
  void close(const std::filesystem::path& file);
  void files_changed_on_disk(const std::vector<FileChange>& changes);
  // Returns problems with the values (ignored), for a message to the user.
  std::vector<std::string> update_settings(const Settings& settings);
  Settings settings() const;

  std::optional<Document> document(const std::filesystem::path& file) const;
  // The editor's text of an open file, else the file on disk; null when neither exists.
  std::shared_ptr<const std::string> text_of(const std::filesystem::path& file) const;

  // Calls back exactly once with the analysis of the document's current input (see
  // DocumentScheduler::read).
  void with_analysis(const std::filesystem::path& file, std::function<void(ReadResult)> callback);

  void stop();
  DocumentScheduler& scheduler() { return *scheduler_; }

  // ---- skills and snippets ----
  // Guidance from the cuda-kernels skill (hovers, completion documentation, kernel-lsp/guidance):
  // the copy under these workspace folders, else the user's agent folders, else the bundled one.
  // Discovered on the first guidance() after construction, set_skill_roots, or a skill file
  // changing on disk. Never null; any thread.
  void set_skill_roots(std::vector<std::filesystem::path> roots);
  std::shared_ptr<const guidance::SkillGuidance> guidance();
  // Whether the client expands snippet syntax in completions (LSP snippetSupport). Kept here
  // until ClientCapabilities carries it.
  void set_snippet_completion(bool supported) { snippet_completion_ = supported; }
  bool snippet_completion() const { return snippet_completion_; }

 private:
  void schedule(const Document& document, bool debounce);
  void relint_dependents(const std::filesystem::path& build_toml, bool debounce);
  void rediscover_projects();
  void on_result(const std::shared_ptr<const AnalysisOutcome>& outcome);
  // The build.toml the job of a source is analysed against, when it is not the file on disk.
  std::optional<ProjectSnapshot> project_of_source(const std::filesystem::path& build_toml);
  // `outcome`, told so when it was made against a stand-in build.toml.
  std::shared_ptr<const AnalysisOutcome> noted(const std::shared_ptr<const AnalysisOutcome>& outcome) const;

  std::unique_ptr<AnalysisBackend> backend_;
  KernelServerListener& listener_;
  DocumentStore documents_;
  ProjectIndex projects_;
  LastParsedBuildTomls last_parsed_;
  mutable std::mutex settings_mutex_;
  Settings settings_;
  std::unique_ptr<DocumentScheduler> scheduler_;

  std::mutex guidance_mutex_;  // skill_roots_, guidance_
  std::vector<std::filesystem::path> skill_roots_;
  std::shared_ptr<const guidance::SkillGuidance> guidance_;  // null: discover on next use
  std::atomic<bool> snippet_completion_{false};
};

// The findings to show for the analysed document itself (findings located in other files are
// not this document's), plus one note when the analysis itself failed.
std::vector<analyzers::Finding> document_findings(const AnalysisOutcome& outcome);

// Settings → scheduler options (workers, debounce).
SchedulerOptions scheduler_options(const Settings& settings);
DebouncePolicy debounce_policy(const Settings& settings);

}  // namespace kl::lsp
