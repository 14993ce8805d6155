#include "analyzers/frontend/device_parser.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "analyzers/frontend/device_invocation.h"
#include "analyzers/frontend/function_bodies.h"
#include "analyzers/frontend/preamble_cache.h"
#include "analyzers/frontend/toolkit_pch.h"
#include "support/fs_paths.h"

namespace kl::analyzers {

// ---------------------------------------------------------------------------------------------
// SourceView

SourceView::SourceView(const clang::SourceManager& sources, std::string main_file_name)
    : sources_(sources), main_file_name_(std::move(main_file_name)) {}

bool SourceView::is_user_location(clang::SourceLocation location) const {
  if (location.isInvalid()) return false;
  clang::SourceLocation expansion = sources_.getExpansionLoc(location);
  if (sources_.isInSystemHeader(expansion)) return false;
  clang::FileID file = sources_.getFileID(expansion);
  if (file.isInvalid()) return false;
  // Scratch buffers and <built-in> have no file entry.
  return sources_.getFileEntryRefForID(file).has_value();
}

bool SourceView::is_main_file(clang::SourceLocation location) const {
  if (location.isInvalid()) return false;
  return sources_.isWrittenInMainFile(sources_.getExpansionLoc(location));
}

Location SourceView::location_of(clang::SourceLocation location) const {
  return location_of(clang::SourceRange(location, location));
}

Location SourceView::location_of(clang::SourceRange range) const {
  Location out;
  clang::SourceLocation begin = sources_.getExpansionLoc(range.getBegin());
  clang::SourceLocation end = sources_.getExpansionRange(range.getEnd()).getEnd();
  if (begin.isInvalid()) return out;
  clang::FileID file = sources_.getFileID(begin);
  if (auto entry = sources_.getFileEntryRefForID(file)) {
    out.file = sources_.getFileManager().getCanonicalName(*entry).str();
    if (sources_.isWrittenInMainFile(begin)) out.file = main_file_name_;
  }
  out.range.start.line = sources_.getSpellingLineNumber(begin) - 1;
  out.range.start.column = sources_.getSpellingColumnNumber(begin) - 1;
  if (end.isValid() && sources_.getFileID(end) == file) {
    unsigned token_length =
        clang::Lexer::MeasureTokenLength(end, sources_, clang::LangOptions());
    out.range.end.line = sources_.getSpellingLineNumber(end) - 1;
    out.range.end.column = sources_.getSpellingColumnNumber(end) - 1 + token_length;
  } else {
    out.range.end = out.range.start;
  }
  if (out.range.end < out.range.start) out.range.end = out.range.start;
  return out;
}

namespace {

// ---------------------------------------------------------------------------------------------
// Preprocessor observation: missing headers and whether user code reads arch macros.

bool is_arch_macro(llvm::StringRef name) {
  return name.starts_with("__CUDA_ARCH") || name.starts_with("NV_IF_") ||
         name == "NV_DISPATCH_TARGET" || name == "__CUDA_MINIMUM_ARCH__";
}

class PreprocessorObserver : public clang::PPCallbacks {
 public:
  PreprocessorObserver(const clang::SourceManager& sources, ParseOutcome& outcome,
                       const std::vector<std::string>& watched_macros, std::string main_file)
      : sources_(sources), outcome_(outcome), watched_(watched_macros), view_(sources, std::move(main_file)) {}

  bool FileNotFound(llvm::StringRef file_name) override {
    outcome_.missing_headers.push_back(file_name.str());
    return true;  // skip it and keep parsing
  }

  // Every file entered but the main one, for included_files (deduplicated at the end of the
  // parse). A file skipped by its include guard was entered before, so none is missed.
  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    if (reason != EnterFile) return;
    clang::FileID id = sources_.getFileID(loc);
    if (id.isInvalid() || id == sources_.getMainFileID()) return;
    auto entry = sources_.getFileEntryRefForID(id);
    if (!entry) return;  // <built-in>, <command line>
    outcome_.included_files.push_back(sources_.getFileManager().getCanonicalName(*entry).str());
  }

  void MacroExpands(const clang::Token& name, const clang::MacroDefinition&, clang::SourceRange range,
                    const clang::MacroArgs*) override {
    note(name.getIdentifierInfo(), range.getBegin());
    if (const clang::IdentifierInfo* id = name.getIdentifierInfo(); id && !watched_.empty()) {
      llvm::StringRef spelled = id->getName();
      for (const auto& watched : watched_) {
        if (spelled == watched && is_user(range.getBegin())) {
          outcome_.watched_macro_uses.emplace_back(watched, view_.location_of(name.getLocation()));
          break;
        }
      }
    }
  }
  void Defined(const clang::Token& name, const clang::MacroDefinition&, clang::SourceRange range) override {
    note(name.getIdentifierInfo(), range.getBegin());
  }
  void Ifdef(clang::SourceLocation loc, const clang::Token& name, const clang::MacroDefinition&) override {
    note(name.getIdentifierInfo(), loc);
  }
  void Ifndef(clang::SourceLocation loc, const clang::Token& name, const clang::MacroDefinition&) override {
    note(name.getIdentifierInfo(), loc);
  }
  // `#if __CUDA_ARCH_FEAT_SM90_ALL` with the macro undefined expands nothing: read the text.
  void If(clang::SourceLocation loc, clang::SourceRange condition, ConditionValueKind) override {
    note_condition(loc, condition);
  }
  void Elif(clang::SourceLocation loc, clang::SourceRange condition, ConditionValueKind,
            clang::SourceLocation) override {
    note_condition(loc, condition);
  }

 private:
  bool is_user(clang::SourceLocation loc) const {
    if (loc.isInvalid()) return false;
    clang::SourceLocation expansion = sources_.getExpansionLoc(loc);
    return !sources_.isInSystemHeader(expansion) &&
           sources_.getFileEntryRefForID(sources_.getFileID(expansion)).has_value();
  }
  void note(const clang::IdentifierInfo* name, clang::SourceLocation loc) {
    if (outcome_.arch_dependent || !name) return;
    if (is_arch_macro(name->getName()) && is_user(loc)) outcome_.arch_dependent = true;
  }
  void note_condition(clang::SourceLocation loc, clang::SourceRange condition) {
    if (outcome_.arch_dependent || !is_user(loc)) return;
    bool invalid = false;
    llvm::StringRef text = clang::Lexer::getSourceText(
        clang::CharSourceRange::getCharRange(condition), sources_, clang::LangOptions(), &invalid);
    if (!invalid && (text.contains("__CUDA_ARCH") || text.contains("NV_PROVIDES") ||
                     text.contains("NV_IS_DEVICE")))
      outcome_.arch_dependent = true;
  }

  const clang::SourceManager& sources_;
  ParseOutcome& outcome_;
  std::vector<std::string> watched_;
  SourceView view_;
};

// ---------------------------------------------------------------------------------------------
// Diagnostics: keep errors in user files, drop the rest (CUDA's headers warn a lot).

class CollectingDiagnostics : public clang::DiagnosticConsumer {
 public:
  CollectingDiagnostics(ParseOutcome& outcome, std::string main_file)
      : outcome_(outcome), main_file_(std::move(main_file)) {}

  bool pch_rejected = false;  // clang could not use the toolkit PCH: the parse is retried without

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level >= clang::DiagnosticsEngine::Error && !info.getLocation().isValid()) {
      llvm::SmallString<256> message;
      info.FormatDiagnostic(message);
      if (is_pch_rejection(message.str())) pch_rejected = true;
    }
    if (level < clang::DiagnosticsEngine::Error || outcome_.errors.size() >= 500) return;
    if (!info.hasSourceManager() || info.getLocation().isInvalid()) return;
    const clang::SourceManager& sources = info.getSourceManager();
    clang::SourceLocation loc = sources.getExpansionLoc(info.getLocation());
    if (sources.isInSystemHeader(loc)) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    // Missing headers are reported once, as missing_headers, not as errors.
    if (llvm::StringRef(message).contains("file not found")) return;
    SourceView view(sources, main_file_);
    outcome_.errors.push_back({view.location_of(loc), message.str().str(), true});
  }

 private:
  ParseOutcome& outcome_;
  std::string main_file_;
};

// ---------------------------------------------------------------------------------------------
// The action: observe the preprocessor, then run the visitor on the finished AST.

// The model's visitors walk only the declarations this parse produced in user files: the
// AST's traversal scope is set to them (as clangd's ParsedAST does with its local top-level
// decls). With a precompiled preamble the headers' declarations are never deserialized for a
// walk (that alone cost more than re-parsing the file after an edit); without one, the CUDA and
// C++ headers' thousands of declarations are skipped by one location test each.

class VisitingConsumer : public clang::ASTConsumer {
 public:
  VisitingConsumer(const AstVisitor& visitor, std::string main_file, const CancellationToken* cancel,
                   const bool& retried, const std::vector<uint32_t>* skipped_bodies)
      : visitor_(visitor), main_file_(std::move(main_file)), cancel_(cancel), retried_(retried) {
    bodies_.skip_main_file_bodies(skipped_bodies);
  }
  void Initialize(clang::ASTContext& context) override { sources_ = &context.getSourceManager(); }
  // With FrontendOptions::SkipFunctionBodies set, the parser asks here (function_bodies.h).
  bool shouldSkipFunctionBody(clang::Decl* decl) override { return bodies_.skip(sources_, decl); }
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl* decl : group) {
      if (!sources_ || !sources_->isInSystemHeader(sources_->getExpansionLoc(decl->getLocation())))
        local_decls_.push_back(decl);
    }
    return true;
  }
  void HandleTranslationUnit(clang::ASTContext& context) override {
    if ((cancel_ && cancel_->is_cancelled()) || retried_) return;  // a parse that will be redone visits nothing
    parsed_at_ = std::chrono::steady_clock::now();
    SourceView view(context.getSourceManager(), main_file_);
    std::vector<clang::Decl*> user_decls;
    user_decls.reserve(local_decls_.size());
    for (clang::Decl* decl : local_decls_)
      if (view.is_user_location(decl->getLocation())) user_decls.push_back(decl);
    context.setTraversalScope(user_decls);
    visitor_(context, view);
    visited_at_ = std::chrono::steady_clock::now();
  }

  std::chrono::steady_clock::time_point parsed_at_{}, visited_at_{};

 private:
  const AstVisitor& visitor_;
  std::string main_file_;
  const CancellationToken* cancel_;
  const bool& retried_;
  const clang::SourceManager* sources_ = nullptr;
  FunctionBodySkipping bodies_;
  std::vector<clang::Decl*> local_decls_;
};

class DeviceParseAction : public clang::ASTFrontendAction {
 public:
  DeviceParseAction(const AstVisitor& visitor, ParseOutcome& outcome, std::string main_file,
                    const std::vector<std::string>& watched_macros, const CancellationToken* cancel,
                    const bool& retried, MacroNames* macro_names, ConfigurationParse configuration)
      : visitor_(visitor),
        outcome_(outcome),
        main_file_(std::move(main_file)),
        watched_(watched_macros),
        cancel_(cancel),
        retried_(retried),
        macro_names_(macro_names),
        configuration_(configuration) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<PreprocessorObserver>(ci.getSourceManager(), outcome_, watched_, main_file_));
    ci.getPreprocessor().addPPCallbacks(
        make_signature_recorder(ci.getPreprocessor(), outcome_.signature, macro_names_,
                                configuration_.record_events ? &outcome_.events : nullptr));
    auto consumer = std::make_unique<VisitingConsumer>(visitor_, main_file_, cancel_, retried_,
                                                       configuration_.skipped_bodies);
    consumer_ = consumer.get();
    return consumer;
  }

  const VisitingConsumer* consumer() const { return consumer_; }

 private:
  const AstVisitor& visitor_;
  ParseOutcome& outcome_;
  std::string main_file_;
  const std::vector<std::string>& watched_;
  const CancellationToken* cancel_;
  const bool& retried_;
  VisitingConsumer* consumer_ = nullptr;
  MacroNames* macro_names_;
  ConfigurationParse configuration_;
};

}  // namespace

std::unique_ptr<clang::PPCallbacks> make_preprocessor_observer(const clang::SourceManager& sources,
                                                               ParseOutcome& outcome,
                                                               const std::vector<std::string>& watched_macros,
                                                               const std::string& main_file) {
  return std::make_unique<PreprocessorObserver>(sources, outcome, watched_macros, main_file);
}

std::unique_ptr<clang::DiagnosticConsumer> make_error_collector(ParseOutcome& outcome, const std::string& main_file) {
  return std::make_unique<CollectingDiagnostics>(outcome, main_file);
}

namespace {

// The invocation for a parse that lends its AST to a visitor: bodies of functions in system
// headers are skipped (see VisitingConsumer).
std::shared_ptr<clang::CompilerInvocation> parse_invocation(const std::vector<std::string>& argv) {
  std::shared_ptr<clang::CompilerInvocation> invocation = device_invocation(argv);
  if (invocation) invocation->getFrontendOpts().SkipFunctionBodies = true;
  return invocation;
}

// Hands the invocation to `ci` with `collector` as its (not owned) diagnostics client; false
// when clang could not set up diagnostics.
bool set_up_compiler(clang::CompilerInstance& ci, std::shared_ptr<clang::CompilerInvocation> invocation,
                     CollectingDiagnostics& collector, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> vfs) {
  ci.setInvocation(std::move(invocation));
  ci.createDiagnostics(&collector, /*ShouldOwnClient=*/false);
  if (!ci.hasDiagnostics()) return false;
  // Keep going after errors: a half-understood file still has device code worth checking.
  ci.getDiagnostics().setFatalsAsError(true);
  ci.getDiagnostics().setErrorLimit(0);
  ci.createFileManager(vfs);
  return true;
}

// The phases of one parse, for KERNEL_LSP_TIME_PARSE.
struct ParseTimes {
  std::chrono::steady_clock::time_point started, prepared, finished;
};

// included_files as ParseOutcome promises: absolute, sorted, each once (a preamble's and the
// parse's own may overlap).
void settle_included_files(std::vector<std::string>& files) {
  for (auto& name : files)
    if (!name.empty() && name.front() != '/') name = absolute_normal(name).string();
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
}

// KERNEL_LSP_TIME_PARSE=1: where a parse's time goes, on stderr (bench/lsp).
void report_parse_times(const ParseTimes& times, const VisitingConsumer* consumer,
                        const std::string& main_file, bool preamble_attached) {
  static const bool timed = std::getenv("KERNEL_LSP_TIME_PARSE") != nullptr;
  if (!timed || !consumer) return;
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  const VisitingConsumer& c = *consumer;
  std::fprintf(stderr, "parse %s: setup+preamble %.1f ms, clang %.1f ms, model %.1f ms, teardown %.1f ms%s\n",
               main_file.c_str(), ms(times.started, times.prepared), ms(times.prepared, c.parsed_at_),
               ms(c.parsed_at_, c.visited_at_), ms(c.visited_at_, times.finished),
               preamble_attached ? " (preamble reused)" : "");
}

}  // namespace

Result<ParseOutcome> parse_device_side(const std::vector<std::string>& argv,
                                       const std::filesystem::path& file, std::string_view text,
                                       const AstVisitor& visitor,
                                       const std::vector<std::string>& watched_macros,
                                       const CancellationToken* cancel, PreambleCache* preambles,
                                       ToolkitPchStore* toolkit_pchs, MacroNames* macro_names,
                                       ConfigurationParse configuration) {
  ParseTimes times;
  times.started = std::chrono::steady_clock::now();
  ParseOutcome outcome;
  if (cancel && cancel->is_cancelled()) return make_error("cancelled");

  std::string main_file = file.string();
  CollectingDiagnostics collector(outcome, main_file);
  std::shared_ptr<clang::CompilerInvocation> invocation = parse_invocation(argv);
  if (!invocation) return make_error("clang could not build a command line to parse " + main_file);

  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()), main_file);
  auto vfs = llvm::vfs::getRealFileSystem();

  auto ci = std::make_unique<clang::CompilerInstance>();
  // With a preamble attached, the preamble has already remapped the main file to `buffer`;
  // remapping it twice would free it twice.
  // Declared before the preamble and the parse, so that a build it holds starts (at the latest)
  // when this function returns, after the parse: on every path, or later parses would wait.
  PreambleCache::DeferredBuild preamble_build;
  std::shared_ptr<const clang::PrecompiledPreamble> preamble =
      preambles ? preambles->prepare(*invocation, main_file, *buffer, vfs, outcome, watched_macros, cancel,
                                     preamble_build, PreambleUse::ReuseOrBuild,
                                     toolkit_pch_source(toolkit_pchs, argv, text))
                : nullptr;
  bool attached = preamble != nullptr;
  // Cancelled while waiting for a preamble build: do not start a plain parse nobody wants.
  if (cancel && cancel->is_cancelled()) return make_error("cancelled");
  // Without a preamble of its own, the parse starts from the shared PCH of the toolkit headers.
  std::optional<std::filesystem::path> toolkit_pch = !attached && toolkit_pchs ? toolkit_pchs->get(argv, text) : std::nullopt;
  if (toolkit_pch) invocation->getPreprocessorOpts().ImplicitPCHInclude = toolkit_pch->string();
  times.prepared = std::chrono::steady_clock::now();
  if (attached) buffer.release();
  else invocation->getPreprocessorOpts().addRemappedFile(main_file, buffer.release());
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  if (!set_up_compiler(*ci, std::move(invocation), collector, vfs))
    return make_error("clang could not set up diagnostics");

  DeviceParseAction action(visitor, outcome, main_file, watched_macros, cancel, collector.pch_rejected,
                           macro_names, configuration);
  try {
    // A false result is not a failure: errors in user code still leave a usable AST, and they
    // are in outcome.errors.
    (void)ci->ExecuteAction(action);
  } catch (const std::exception& e) {
    return make_error(std::string("clang failed while parsing ") + main_file + ": " + e.what());
  }
  if (collector.pch_rejected && (toolkit_pch || attached)) {
    // Stale or mismatched after all (a preamble's too, when the toolkit PCH it was built on has
    // been replaced since): once more without it (and without the preamble cache, whose
    // deferred build for this file starts only when this call returns).
    if (toolkit_pch) toolkit_pchs->reject(*toolkit_pch);
    if (attached) preambles->forget(main_file);
    return parse_device_side(argv, file, text, visitor, watched_macros, cancel, nullptr, nullptr, macro_names,
                             configuration);
  }
  times.finished = std::chrono::steady_clock::now();
  outcome.parse_milliseconds =
      std::chrono::duration<double, std::milli>(times.finished - times.started).count();
  report_parse_times(times, action.consumer(), main_file, attached);
  settle_included_files(outcome.included_files);
  if (cancel && cancel->is_cancelled()) return make_error("cancelled");
  return outcome;
}

}  // namespace kl::analyzers
