#pragma once
// `kernel-lsp lint`'s result cache (ruff's model): a file's findings and kernel coverage, kept
// in a folder and handed back while nothing they came from has changed, so that a lint of an
// unchanged project in pre-commit or CI costs a few stats and a JSON read per file.
//
// Layout: <root>/CACHEDIR.TAG, <root>/<binary_identity>/<entry>.json, one entry per (absolute
// file, settings_key) (cache_key.h). A binary that finds no folder of its own creates it and
// removes the other binaries' folders under <root> (only folders with this cache's marker file,
// so a --cache-dir pointed at a busy folder loses nothing else).
//
// An entry holds the source's content hash and every input the analysis read
// (FileAnalysis::inputs) with its size, modification time (ns) and content hash, and the
// build.toml and compile_commands.json that the lookups would find for the file. lookup hits
// when the text hashes the same, the same build.toml / compile_commands.json are found, and
// every input has the recorded size and time, or else the recorded content (a `touch` still
// hits). store refuses results whose inputs changed during the analysis or were modified less
// than a second before it began (a later edit within the same timestamp tick would go unseen).
//
// Not noticed (`--no-cache` or deleting the folder clears them): a header that was missing and
// now exists; for a header in a kernel-builder project, a change in which kernels' sources
// include it; PyTorch installed into or removed from the python3 on PATH.
//
// Writes go to a temporary file renamed over the entry, so concurrent lint processes and a
// killed run never leave a half-written entry; an unreadable or malformed entry is a miss.
// Thread-safety: lookup and store may be called from several threads at once.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzers/finding.h"
#include "analyzers/pipeline/coverage.h"

namespace kl::cli {

// What the reports need of a file's analysis (report.h's FileResult).
struct CachedResult {
  std::vector<analyzers::Finding> findings;
  std::vector<analyzers::KernelCoverage> kernels;
};

// The analysis a result came from, for store.
struct AnalysisRecord {
  std::vector<std::string> inputs;  // FileAnalysis::inputs
  bool is_build_toml = false;  // the target is a build.toml (its analysis reads nothing else)
  int64_t started_ns = 0;      // analysis_clock_ns() when the analysis began
};

// Now, on the clock of file modification times (ns since the epoch).
int64_t analysis_clock_ns();

class ResultCache {
 public:
  // The cache of this binary under `root`, created when absent; null when it cannot be.
  // `use_compile_commands` says whether entries must check which compile_commands.json is found.
  static std::unique_ptr<ResultCache> open(const std::filesystem::path& root, const std::string& binary_identity,
                                           std::string settings_key, bool use_compile_commands);

  std::optional<CachedResult> lookup(const std::filesystem::path& file, std::string_view text);
  // Keeps `result` for `file` with text `text`, unless the record says it may be stale.
  // Returns whether it was stored.
  bool store(const std::filesystem::path& file, std::string_view text, const CachedResult& result,
             const AnalysisRecord& record);

  const std::filesystem::path& folder() const { return folder_; }

  // A file's state as this run saw it: stat once, content hashed once (when needed).
  struct FileState {
    bool exists = false;
    uint64_t size = 0;
    int64_t mtime_ns = 0;
    std::string hash;      // empty until computed
    bool stable = true;    // false: it changed while it was hashed
  };

 private:
  ResultCache(std::filesystem::path folder, std::string settings_key, bool use_compile_commands);
  std::filesystem::path entry_path(const std::string& file) const;
  FileState stat_of(const std::string& path);
  FileState hashed_state_of(const std::string& path);
  bool input_unchanged(const std::string& path, uint64_t size, int64_t mtime_ns, const std::string& hash);

  std::filesystem::path folder_;
  std::string settings_key_;
  bool use_compile_commands_;
  std::mutex mutex_;
  std::unordered_map<std::string, FileState> seen_;  // guarded by mutex_
};

// Where the cache lives unless --cache-dir says: $KERNEL_LSP_CACHE_DIR, else
// $XDG_CACHE_HOME/kernel-lsp/lint, else $HOME/.cache/kernel-lsp/lint; empty when none is set.
std::filesystem::path default_cache_root();

}  // namespace kl::cli
