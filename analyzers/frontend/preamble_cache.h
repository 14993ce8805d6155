#pragma once
// Keeps a precompiled preamble (the #include region at the top of a file, compiled once) per
// file and command line, so that re-parsing an edited file only parses the part after the
// includes. This is what makes re-lint after a keystroke cheap in the server; the CLI, which
// parses each file once, does not use it.
//
// Building a preamble costs more than one plain parse of the whole file (it parses the headers
// and serializes them), so it is never on the path of a result: when a file has no usable
// preamble, the caller parses plainly while a background thread builds one; the next parse
// waits for that build if it is still running, then reuses it. (clangd builds first and parses
// second; for one file that is the slower order.)
//
// Preambles are stored on disk in the temporary directory, as clangd does by default, so that 50
// open files do not hold 50 serialized ASTs in memory; each is deleted with its entry.
//
// Thread-safety: all members may be called concurrently.
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <llvm/ADT/IntrusiveRefCntPtr.h>

#include "support/cancellation.h"

namespace clang {
class CompilerInvocation;
class PrecompiledPreamble;
}  // namespace clang
namespace llvm {
class MemoryBuffer;
namespace vfs {
class FileSystem;
}
}  // namespace llvm

namespace kl::analyzers {

struct ParseOutcome;

// Whether prepare() arranges a build when no preamble fits: a parse always wants one; a
// configuration check (configuration_signature.h) only when its arch will not be parsed.
enum class PreambleUse { ReuseOrBuild, ReuseOnly };

// Where a preamble build may start from: a precompiled header's path, or nullopt.
using BasePch = std::function<std::optional<std::string>()>;

class PreambleCache {
 public:
  PreambleCache();
  ~PreambleCache();

  // Starts a background build when destroyed (or when start() is called): the caller parses
  // plainly first, so that the build does not take CPU from the result being waited for.
  class DeferredBuild {
   public:
    DeferredBuild() = default;
    DeferredBuild(DeferredBuild&&) = default;
    DeferredBuild& operator=(DeferredBuild&&) = delete;
    ~DeferredBuild() { start(); }
    void start() {
      if (auto run = std::move(run_)) run();
      run_ = nullptr;
    }

   private:
    friend class PreambleCache;
    std::function<void()> run_;
  };

  // Attaches a valid preamble for `file` to `invocation`, remaps the main file to `buffer` (which
  // the invocation then owns), and replays what the preamble's preprocessing observed into
  // `outcome` (setting outcome.preamble_reused). When no preamble fits, returns null and fills
  // `build` with a build of one for this text (which other parses of the file will wait for):
  // the caller parses without a preamble, `invocation` unchanged, and lets `build` start after.
  // Waits for a build already under way for this file (unless `cancel` fires). The returned
  // preamble must outlive the parse: a rebuild for a newer text may replace the entry's
  // meanwhile, and the parse reads the old one's file.
  // `base_pch`, when given, is asked at build time for a PCH to build on (the toolkit PCH that
  // also holds the headers the file opens with, toolkit_pch.h): the preamble then holds only
  // the rest of the #include region, and costs a fraction of a build from nothing.
  std::shared_ptr<const clang::PrecompiledPreamble> prepare(
      clang::CompilerInvocation& invocation, const std::string& file, const llvm::MemoryBuffer& buffer,
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>& vfs, ParseOutcome& outcome,
      const std::vector<std::string>& watched_macros, const CancellationToken* cancel, DeferredBuild& build,
      PreambleUse use = PreambleUse::ReuseOrBuild, BasePch base_pch = {});

  void forget(const std::string& file);
  void clear();
  size_t size() const;

 private:
  struct Entry;
  std::function<void()> make_build(const std::shared_ptr<Entry>& entry, const clang::CompilerInvocation& invocation,
                   const std::string& file, const llvm::MemoryBuffer& buffer,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> vfs,
                   const std::vector<std::string>& watched, BasePch base_pch);
  void builder_loop();

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Entry>> entries_;  // key: file + "\n" + arch

  // One builder thread, started on first use: builds run one at a time beside the parses.
  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::thread builder_;
};

}  // namespace kl::analyzers
