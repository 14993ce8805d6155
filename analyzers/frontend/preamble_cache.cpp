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

#include <chrono>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/frontend/function_bodies.h"
#include "analyzers/frontend/header_decl_lists.h"

namespace kl::analyzers {

// Declared in device_parser.cpp: the same observer that the main parse uses.
std::unique_ptr<clang::PPCallbacks> make_preprocessor_observer(const clang::SourceManager& sources,
                                                               ParseOutcome& outcome,
                                                               const std::vector<std::string>& watched_macros,
                                                               const std::string& main_file);
// Declared in device_parser.cpp too: the parse's collector of clang's errors in user files, so
// that a parse reusing the preamble reports the errors of its #include region as a parse
// without one does.
std::unique_ptr<clang::DiagnosticConsumer> make_error_collector(ParseOutcome& outcome, const std::string& main_file);

struct PreambleCache::Entry {
  std::mutex mutex;
  std::condition_variable built;  // signalled when a background build ends
  bool building = false;
  bool forgotten = false;  // the file was closed: a build in flight is thrown away
  std::shared_ptr<clang::PrecompiledPreamble> preamble;
  // What preprocessing the preamble saw (missing headers, arch macros).
  std::shared_ptr<ParseOutcome> observed;
};

namespace {

class ObservingCallbacks : public clang::PreambleCallbacks {
 public:
  ObservingCallbacks(ParseOutcome& outcome, const std::vector<std::string>& watched, std::string main_file)
      : outcome_(outcome), watched_(watched), main_file_(std::move(main_file)) {}
  void BeforeExecute(clang::CompilerInstance& ci) override {
    sources_ = &ci.getSourceManager();
    compiler_ = &ci;  // its preprocessor is made after this call, before createPPCallbacks
  }
  std::unique_ptr<clang::PPCallbacks> createPPCallbacks() override {
    if (!sources_ || !compiler_ || !compiler_->hasPreprocessor()) return nullptr;
    // The preamble's share of the signature, added to the parses that reuse it.
    return std::make_unique<clang::PPChainedCallbacks>(
        make_preamble_list_trimmer(*compiler_),
        std::make_unique<clang::PPChainedCallbacks>(
            make_preprocessor_observer(*sources_, outcome_, watched_, main_file_),
            make_signature_recorder(compiler_->getPreprocessor(), outcome_.signature)));
  }
  bool shouldSkipFunctionBody(clang::Decl* decl) override { return bodies_.skip(sources_, decl); }

 private:
  ParseOutcome& outcome_;
  const std::vector<std::string>& watched_;
  std::string main_file_;
  const clang::SourceManager* sources_ = nullptr;
  clang::CompilerInstance* compiler_ = nullptr;
  FunctionBodySkipping bodies_;
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

PreambleCache::~PreambleCache() {
  {
    std::lock_guard lock(queue_mutex_);
    stopping_ = true;
    queue_.clear();
  }
  queue_cv_.notify_all();
  if (builder_.joinable()) builder_.join();
}

void PreambleCache::builder_loop() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(queue_mutex_);
      queue_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job();
  }
}

std::function<void()> PreambleCache::make_build(const std::shared_ptr<Entry>& entry,
                                const clang::CompilerInvocation& invocation, const std::string& file,
                                const llvm::MemoryBuffer& buffer,
                                llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> vfs,
                                const std::vector<std::string>& watched, BasePch base_pch) {
  // Called with entry->mutex held and entry->building just set. Everything the build reads is
  // copied now: the caller's invocation and buffer go on to the plain parse. The returned
  // function queues the build.
  auto copy = std::make_shared<clang::CompilerInvocation>(invocation);
  std::shared_ptr<llvm::MemoryBuffer> text(
      llvm::MemoryBuffer::getMemBufferCopy(buffer.getBuffer(), buffer.getBufferIdentifier()).release());
  auto job = [entry, copy, text, vfs, file, watched, base_pch = std::move(base_pch)] {
    auto observed = std::make_shared<ParseOutcome>();
    std::shared_ptr<clang::PrecompiledPreamble> built_preamble;
    {
      std::unique_lock lock(entry->mutex);
      if (entry->forgotten) {
        entry->building = false;
        entry->built.notify_all();
        return;
      }
    }
    if (base_pch)
      if (auto pch = base_pch()) copy->getPreprocessorOpts().ImplicitPCHInclude = *pch;
    auto bounds = clang::ComputePreambleBounds(copy->getLangOpts(), text->getMemBufferRef(), 0);
    std::unique_ptr<clang::DiagnosticConsumer> errors = make_error_collector(*observed, file);
    auto diag_options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    auto diags = clang::CompilerInstance::createDiagnostics(diag_options.get(), errors.get(), false);
    ObservingCallbacks callbacks(*observed, watched, file);
    auto result = clang::PrecompiledPreamble::Build(*copy, text.get(), bounds, *diags, vfs,
                                                    std::make_shared<clang::PCHContainerOperations>(),
                                                    /*StoreInMemory=*/false, /*StoragePath=*/"", callbacks);
    if (result) built_preamble = std::make_shared<clang::PrecompiledPreamble>(std::move(*result));
    std::lock_guard lock(entry->mutex);
    if (!entry->forgotten) {
      entry->preamble = std::move(built_preamble);
      entry->observed = std::move(observed);
    }
    entry->building = false;
    entry->built.notify_all();
  };
  return [this, entry, job = std::move(job)]() mutable {
    {
      std::lock_guard lock(queue_mutex_);
      if (!stopping_) {
        if (!builder_.joinable()) builder_ = std::thread([this] { builder_loop(); });
        queue_.push_back(std::move(job));
        queue_cv_.notify_one();
        return;
      }
    }
    std::lock_guard lock(entry->mutex);
    entry->building = false;
    entry->built.notify_all();
  };
}

std::shared_ptr<const clang::PrecompiledPreamble> PreambleCache::prepare(
    clang::CompilerInvocation& invocation, const std::string& file, const llvm::MemoryBuffer& buffer,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>& vfs, ParseOutcome& outcome,
    const std::vector<std::string>& watched_macros, const CancellationToken* cancel, DeferredBuild& build,
    PreambleUse use, BasePch base_pch) {
  std::shared_ptr<Entry> entry;
  std::string key = cache_key(invocation, file);
  {
    std::lock_guard lock(mutex_);
    auto& slot = entries_[key];
    if (!slot) slot = std::make_shared<Entry>();
    entry = slot;
  }
  std::unique_lock lock(entry->mutex);
  // A build under way is nearly always faster to wait for than a plain parse.
  while (entry->building) {
    if (cancel && cancel->is_cancelled()) return nullptr;
    entry->built.wait_for(lock, std::chrono::milliseconds(20));
  }
  auto bounds = clang::ComputePreambleBounds(invocation.getLangOpts(), buffer.getMemBufferRef(), 0);
  if (!entry->preamble || !entry->preamble->CanReuse(invocation, buffer.getMemBufferRef(), bounds, *vfs)) {
    entry->preamble.reset();
    entry->observed.reset();
    if (use == PreambleUse::ReuseOnly || (cancel && cancel->is_cancelled())) return nullptr;
    entry->building = true;
    build.run_ = make_build(entry, invocation, file, buffer, vfs, watched_macros, std::move(base_pch));
    return nullptr;
  }
  outcome.preamble_reused = true;
  std::shared_ptr<clang::PrecompiledPreamble> preamble = entry->preamble;
  std::shared_ptr<ParseOutcome> observed = entry->observed;
  lock.unlock();
  preamble->AddImplicitPreamble(invocation, vfs, const_cast<llvm::MemoryBuffer*>(&buffer));
  if (observed) {
    outcome.missing_headers.insert(outcome.missing_headers.end(), observed->missing_headers.begin(),
                                   observed->missing_headers.end());
    outcome.errors.insert(outcome.errors.end(), observed->errors.begin(), observed->errors.end());
    outcome.included_files.insert(outcome.included_files.end(), observed->included_files.begin(),
                                  observed->included_files.end());
    outcome.arch_dependent = outcome.arch_dependent || observed->arch_dependent;
    outcome.signature.merge(observed->signature);
    outcome.events.push_back(preamble_event(observed->signature));  // dropped unless events are recorded
    outcome.watched_macro_uses.insert(outcome.watched_macro_uses.end(), observed->watched_macro_uses.begin(),
                                      observed->watched_macro_uses.end());
  }
  return preamble;
}

void PreambleCache::forget(const std::string& file) {
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->first.rfind(file + "\n", 0) == 0 || it->first.rfind(file, 0) == 0) {
      std::lock_guard entry_lock(it->second->mutex);
      it->second->forgotten = true;
      it->second->preamble.reset();
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
}

void PreambleCache::clear() {
  std::lock_guard lock(mutex_);
  for (auto& [key, entry] : entries_) {
    std::lock_guard entry_lock(entry->mutex);
    entry->forgotten = true;
    entry->preamble.reset();
  }
  entries_.clear();
}

size_t PreambleCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace kl::analyzers
