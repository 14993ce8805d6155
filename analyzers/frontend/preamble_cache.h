#pragma once
// Keeps a precompiled preamble (the #include region at the top of a file, compiled once) per
// file and command line, so that re-parsing an edited file only parses the part after the
// includes. This is what makes re-lint after a keystroke cheap in the server; the CLI, which
// parses each file once, does not use it.
//
// Thread-safety: all members may be called concurrently; one file's preamble is built by one
// caller at a time. Memory: a preamble for a file that includes cuda_runtime.h is a few MB (kept
// in memory, not on disk).
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
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

class PreambleCache {
 public:
  PreambleCache();
  ~PreambleCache();

  // Attaches a valid preamble for `file` to `invocation` (building one when none fits), remaps
  // the main file to `buffer` (which the invocation then owns), and replays what the preamble's
  // preprocessing observed into `outcome` (setting outcome.preamble_reused when an existing one
  // was reused). Returns whether a preamble was attached; on failure `invocation` is unchanged.
  bool prepare(clang::CompilerInvocation& invocation, const std::string& file,
               const llvm::MemoryBuffer& buffer, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>& vfs,
               ParseOutcome& outcome, const std::vector<std::string>& watched_macros,
               const CancellationToken* cancel);

  void forget(const std::string& file);
  void clear();
  size_t size() const;

 private:
  struct Entry;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Entry>> entries_;  // key: file + "\n" + arch
};

}  // namespace kl::analyzers
