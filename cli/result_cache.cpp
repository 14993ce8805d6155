#include "cli/result_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "analyzers/frontend/compile_database.h"
#include "analyzers/frontend/content_hash.h"
#include "analyzers/isolation/analysis_wire.h"
#include "analyzers/project/project_locator.h"
#include "support/fs_paths.h"

namespace kl::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr int kFormat = 1;  // of an entry; another value is a miss
constexpr const char* kMarker = ".kernel-lsp-lint-cache";  // in each binary's folder
// An input modified this close to (or after) the analysis's start may have changed within one
// timestamp tick of what the analysis read: such a result is not kept.
constexpr int64_t kRacyWindowNs = 1'000'000'000;

constexpr const char* kCacheDirTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by kernel-lsp (lint's result cache).\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n";

// Removes the folders of other binaries (those with the marker) under `root`.
void remove_other_versions(const fs::path& root, const fs::path& keep) {
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& folder = it->path();
    std::error_code probe;
    if (folder == keep || !fs::is_directory(folder, probe) || !fs::exists(folder / kMarker, probe)) continue;
    fs::remove_all(folder, probe);
  }
}

int64_t mtime_ns_of(const struct stat& info) {
  return static_cast<int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
}

// The build.toml and compile_commands.json the analysis would find for `file` now.
std::vector<std::string> project_files(const fs::path& file, bool use_compile_commands) {
  std::vector<std::string> found;
  if (auto toml = analyzers::find_build_toml(file)) found.push_back(toml->string());
  if (use_compile_commands)
    if (auto database = analyzers::find_compile_database(file)) found.push_back(database->string());
  return found;
}

}  // namespace

fs::path default_cache_root() { return user_cache_dir("KERNEL_LSP_CACHE_DIR", "lint"); }

ResultCache::ResultCache(fs::path folder, std::string settings_key, bool use_compile_commands)
    : folder_(std::move(folder)), settings_key_(std::move(settings_key)), use_compile_commands_(use_compile_commands) {}

std::unique_ptr<ResultCache> ResultCache::open(const fs::path& root, const std::string& binary_identity,
                                               std::string settings_key, bool use_compile_commands) {
  if (root.empty()) return nullptr;
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec || !fs::is_directory(root, ec)) return nullptr;
  if (!fs::exists(root / "CACHEDIR.TAG", ec)) write_file_atomically(root / "CACHEDIR.TAG", kCacheDirTag);
  fs::path folder = root / binary_identity;
  if (!fs::exists(folder / kMarker, ec)) {
    fs::create_directories(folder, ec);
    if (ec || !write_file_atomically(folder / kMarker, binary_identity + "\n")) return nullptr;
    remove_other_versions(root, folder);  // "cleared on version change"
  }
  return std::unique_ptr<ResultCache>(new ResultCache(folder, std::move(settings_key), use_compile_commands));
}

fs::path ResultCache::entry_path(const std::string& file) const {
  return folder_ / (analyzers::content_hash(file + "\n" + settings_key_) + ".json");
}

ResultCache::FileState ResultCache::stat_of(const std::string& path) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = seen_.find(path); it != seen_.end()) return it->second;
  }
  FileState state;
  struct stat info{};
  if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
    state.exists = true;
    state.size = static_cast<uint64_t>(info.st_size);
    state.mtime_ns = mtime_ns_of(info);
  }
  std::lock_guard lock(mutex_);
  return seen_.emplace(path, state).first->second;
}

// The state with its content hash. The hash belongs to the recorded size and time only if the
// file did not change while it was read: otherwise the state is marked unstable.
ResultCache::FileState ResultCache::hashed_state_of(const std::string& path) {
  FileState state = stat_of(path);
  if (!state.exists || !state.hash.empty() || !state.stable) return state;
  std::optional<std::string> text = read_file_text(path);
  struct stat info{};
  bool same = text && ::stat(path.c_str(), &info) == 0 && static_cast<uint64_t>(info.st_size) == state.size &&
              mtime_ns_of(info) == state.mtime_ns &&
              text->size() == state.size;
  if (same) state.hash = analyzers::content_hash(*text);
  else state.stable = false;
  std::lock_guard lock(mutex_);
  seen_[path] = state;
  return state;
}

bool ResultCache::input_unchanged(const std::string& path, uint64_t size, int64_t mtime_ns, const std::string& hash) {
  FileState now = stat_of(path);
  if (!now.exists || now.size != size) return false;
  if (now.mtime_ns == mtime_ns) return true;
  now = hashed_state_of(path);  // touched, or edited and restored: the content decides
  return now.stable && now.hash == hash;
}

std::optional<CachedResult> ResultCache::lookup(const fs::path& file, std::string_view text) {
  std::optional<std::string> stored = read_file_text(entry_path(file.string()));
  if (!stored) return std::nullopt;
  try {
    json entry = json::parse(*stored);
    if (entry.at("format").get<int>() != kFormat || entry.at("file").get<std::string>() != file.string() ||
        entry.at("settings").get<std::string>() != settings_key_ ||
        entry.at("source").get<std::string>() != analyzers::content_hash(text))
      return std::nullopt;
    if (entry.at("project_checked").get<bool>() &&
        entry.at("project_files").get<std::vector<std::string>>() != project_files(file, use_compile_commands_))
      return std::nullopt;  // a build.toml or compile_commands.json appeared, moved or went
    for (const json& input : entry.at("inputs")) {
      if (!input_unchanged(input.at(0).get<std::string>(), input.at(1).get<uint64_t>(), input.at(2).get<int64_t>(),
                           input.at(3).get<std::string>()))
        return std::nullopt;
    }
    analyzers::FileAnalysis analysis = analyzers::analysis_from_json(entry.at("result"));
    return CachedResult{std::move(analysis.findings), std::move(analysis.coverage)};
  } catch (const std::exception&) {
    return std::nullopt;  // a corrupt or foreign entry is a miss, never an error
  }
}

bool ResultCache::store(const fs::path& file, std::string_view text, const CachedResult& result,
                        const AnalysisRecord& record) {
  std::vector<std::string> inputs = record.inputs;
  std::vector<std::string> found;
  if (!record.is_build_toml) {
    found = project_files(file, use_compile_commands_);
    inputs.insert(inputs.end(), found.begin(), found.end());
  }
  std::sort(inputs.begin(), inputs.end());
  inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  json recorded = json::array();
  for (const std::string& path : inputs) {
    FileState state = hashed_state_of(path);
    if (!state.exists || !state.stable || state.mtime_ns >= record.started_ns - kRacyWindowNs) return false;
    struct stat info{};  // still as hashed, now that the analysis is over?
    if (::stat(path.c_str(), &info) != 0 || static_cast<uint64_t>(info.st_size) != state.size ||
        mtime_ns_of(info) != state.mtime_ns)
      return false;
    recorded.push_back(json::array({path, state.size, state.mtime_ns, state.hash}));
  }
  analyzers::FileAnalysis analysis;
  analysis.findings = result.findings;
  analysis.coverage = result.kernels;
  json entry = {{"format", kFormat},
                {"file", file.string()},
                {"settings", settings_key_},
                {"source", analyzers::content_hash(text)},
                {"project_checked", !record.is_build_toml},
                {"project_files", found},
                {"inputs", std::move(recorded)},
                {"result", analyzers::analysis_to_json(analysis)}};
  return write_file_atomically(entry_path(file.string()), entry.dump());
}

int64_t analysis_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace kl::cli
