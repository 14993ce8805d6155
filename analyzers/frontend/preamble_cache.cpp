#include "analyzers/frontend/preamble_cache.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/PrecompiledPreamble.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include "analyzers/frontend/device_parser.h"

namespace kl::analyzers {

// Declared in device_parser.cpp: the same observer that the main parse uses.
std::unique_ptr<clang::PPCallbacks> make_preprocessor_observer(const clang::SourceManager& sources,
                                                               ParseOutcome& outcome,
                                                               const std::vector<std::string>& watched_macros,
                                                               const std::string& main_file);

struct PreambleCache::Entry {
  std::mutex build_mutex;  // one build per file at a time
  std::shared_ptr<clang::PrecompiledPreamble> preamble;
  ParseOutcome observed;  // what preprocessing the preamble saw (missing headers, arch macros)
};

namespace {

class ObservingCallbacks : public clang::PreambleCallbacks {
 public:
  ObservingCallbacks(ParseOutcome& outcome, const std::vector<std::string>& watched, std::string main_file)
      : outcome_(outcome), watched_(watched), main_file_(std::move(main_file)) {}
  void BeforeExecute(clang::CompilerInstance& ci) override { sources_ = &ci.getSourceManager(); }
  std::unique_ptr<clang::PPCallbacks> createPPCallbacks() override {
    if (!sources_) return nullptr;
    return make_preprocessor_observer(*sources_, outcome_, watched_, main_file_);
  }

 private:
  ParseOutcome& outcome_;
  const std::vector<std::string>& watched_;
  std::string main_file_;
  const clang::SourceManager* sources_ = nullptr;
};

std::string cache_key(const clang::CompilerInvocation& invocation, const std::string& file) {
  std::string key = file;
  for (const auto& target : invocation.getTargetOpts().CPU) key += target;
  key += "\n";
  for (const auto& [name, undef] : invocation.getPreprocessorOpts().Macros) key += name + (undef ? "-" : "+");
  return key;
}

}  // namespace

PreambleCache::PreambleCache() = default;
PreambleCache::~PreambleCache() = default;

bool PreambleCache::prepare(clang::CompilerInvocation& invocation, const std::string& file,
                            const llvm::MemoryBuffer& buffer,
                            llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>& vfs, ParseOutcome& outcome,
                            const std::vector<std::string>& watched_macros, const CancellationToken* cancel) {
  std::shared_ptr<Entry> entry;
  std::string key = cache_key(invocation, file);
  {
    std::lock_guard lock(mutex_);
    auto& slot = entries_[key];
    if (!slot) slot = std::make_shared<Entry>();
    entry = slot;
  }
  std::lock_guard build_lock(entry->build_mutex);
  auto bounds = clang::ComputePreambleBounds(invocation.getLangOpts(), buffer.getMemBufferRef(), 0);
  if (entry->preamble && entry->preamble->CanReuse(invocation, buffer.getMemBufferRef(), bounds, *vfs)) {
    outcome.preamble_reused = true;
  } else {
    if (cancel && cancel->is_cancelled()) return false;
    entry->preamble.reset();
    entry->observed = ParseOutcome();
    clang::IgnoringDiagConsumer ignore;
    auto diag_options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    auto diags = clang::CompilerInstance::createDiagnostics(diag_options.get(), &ignore, false);
    ObservingCallbacks callbacks(entry->observed, watched_macros, file);
    // The preamble is built from a copy: Build may adjust the invocation it is given.
    clang::CompilerInvocation copy(invocation);
    auto built = clang::PrecompiledPreamble::Build(
        copy, &buffer, bounds, *diags, vfs, std::make_shared<clang::PCHContainerOperations>(),
        /*StoreInMemory=*/true, /*StoragePath=*/"", callbacks);
    if (!built) return false;
    entry->preamble = std::make_shared<clang::PrecompiledPreamble>(std::move(*built));
  }
  entry->preamble->AddImplicitPreamble(invocation, vfs, const_cast<llvm::MemoryBuffer*>(&buffer));
  outcome.missing_headers.insert(outcome.missing_headers.end(), entry->observed.missing_headers.begin(),
                                 entry->observed.missing_headers.end());
  outcome.arch_dependent = outcome.arch_dependent || entry->observed.arch_dependent;
  outcome.watched_macro_uses.insert(outcome.watched_macro_uses.end(), entry->observed.watched_macro_uses.begin(),
                                    entry->observed.watched_macro_uses.end());
  return true;
}

void PreambleCache::forget(const std::string& file) {
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->first.rfind(file + "\n", 0) == 0 || it->first.rfind(file, 0) == 0) it = entries_.erase(it);
    else ++it;
  }
}

void PreambleCache::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();
}

size_t PreambleCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace kl::analyzers
