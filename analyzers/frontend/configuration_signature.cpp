#include "analyzers/frontend/configuration_signature.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/PrecompiledPreamble.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/xxhash.h>

#include "analyzers/frontend/device_invocation.h"
#include "analyzers/frontend/device_parser.h"
#include "analyzers/frontend/preamble_cache.h"
#include "analyzers/frontend/system_header_directives.h"
#include "analyzers/frontend/toolkit_pch.h"

namespace kl::analyzers {

void ConfigurationSignature::add_event(std::string_view event) {
  llvm::StringRef text(event.data(), event.size());
  sum += llvm::xxh3_64bits(text);
  second_sum += llvm::xxHash64(text);
  ++events;
}

void ConfigurationSignature::merge(const ConfigurationSignature& other) {
  sum += other.sum;
  second_sum += other.second_sum;
  events += other.events;
}

namespace {

class SignatureRecorder : public clang::PPCallbacks {
 public:
  SignatureRecorder(const clang::Preprocessor& preprocessor, ConfigurationSignature& signature)
      : preprocessor_(preprocessor), sources_(preprocessor.getSourceManager()), view_(sources_, {}),
        signature_(signature) {}

  bool FileNotFound(llvm::StringRef) override { return true; }  // skip it, as the parse does

  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    // The main file is always entered, and a preamble's build enters it too: only headers count.
    if (reason != EnterFile || sources_.getFileID(loc) == sources_.getMainFileID()) return;
    if (auto file = user_file(loc)) signature_.add_event("enter\n" + *file);
  }

  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    auto file = user_file(range.getBegin());
    if (!file) return;
    signature_.add_event("skip\n" + *file + "\n" + std::to_string(sources_.getFileOffset(range.getBegin())) +
                         "-" + std::to_string(sources_.getFileOffset(range.getEnd())));
  }

  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& definition, clang::SourceRange range,
                    const clang::MacroArgs*) override {
    const clang::MacroInfo* info = definition.getMacroInfo();
    const clang::IdentifierInfo* id = name.getIdentifierInfo();
    if (!info || !id || preprocessor_.isParsingIfOrElifDirective()) return;
    clang::SourceLocation at = sources_.getExpansionLoc(range.getBegin());
    auto file = user_file(at);
    // A macro the user defined expands to the user's own (already fingerprinted) text.
    if (!file || user_file(info->getDefinitionLoc())) return;
    std::string event = "macro\n" + *file + "\n" + std::to_string(sources_.getFileOffset(at)) + "\n" +
                        id->getName().str() + "\n";
    for (const clang::Token& token : info->tokens()) {
      event += clang::Lexer::getSpelling(token, sources_, clang::LangOptions());
      event += ' ';
    }
    signature_.add_event(event);
  }

 private:
  // The file's name when `loc` is in a user file (SourceView's test: not a system header, not a
  // scratch buffer).
  std::optional<std::string> user_file(clang::SourceLocation loc) const {
    if (!view_.is_user_location(loc)) return std::nullopt;
    return sources_.getFileEntryRefForID(sources_.getFileID(sources_.getExpansionLoc(loc)))->getName().str();
  }

  const clang::Preprocessor& preprocessor_;
  const clang::SourceManager& sources_;
  SourceView view_;  // its main-file name is not used here
  ConfigurationSignature& signature_;
};

// Lexes the whole translation unit, as a parse would, with the recorder attached. An AST
// action that never parses: as one, it loads a precompiled preamble the invocation names (a
// preprocessor-only action would include the preamble's source text instead).
class SignatureAction : public clang::ASTFrontendAction {
 public:
  SignatureAction(ConfigurationSignature& signature, const CancellationToken* cancel)
      : signature_(signature), cancel_(cancel) {}
  bool cancelled = false;

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<clang::ASTConsumer>();
  }
  void ExecuteAction() override {
    clang::Preprocessor& preprocessor = getCompilerInstance().getPreprocessor();
    preprocessor.addPPCallbacks(make_signature_recorder(preprocessor, signature_));
    // The signature reads user files only; of system headers it needs the directives.
    install_system_header_directives(getCompilerInstance());
    preprocessor.EnterMainSourceFile();
    clang::Token token;
    for (uint64_t count = 0;; ++count) {
      preprocessor.Lex(token);
      if (token.is(clang::tok::eof)) break;
      if ((count & 0xffff) == 0 && cancel_ && cancel_->is_cancelled()) {
        cancelled = true;
        break;
      }
    }
    uninstall_system_header_directives(getCompilerInstance());
  }

 private:
  ConfigurationSignature& signature_;
  const CancellationToken* cancel_;
};

}  // namespace

std::unique_ptr<clang::PPCallbacks> make_signature_recorder(const clang::Preprocessor& preprocessor,
                                                            ConfigurationSignature& signature) {
  return std::make_unique<SignatureRecorder>(preprocessor, signature);
}

namespace {

// Drops every diagnostic, noting whether one says the toolkit PCH could not be used.
class PchRejectionWatch : public clang::DiagnosticConsumer {
 public:
  bool rejected = false;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    if (level < clang::DiagnosticsEngine::Error || info.getLocation().isValid()) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    if (is_pch_rejection(message.str())) rejected = true;
  }
};

std::unique_ptr<llvm::MemoryBuffer> text_buffer(const std::filesystem::path& file, std::string_view text) {
  return llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()), file.string());
}

}  // namespace

Result<ConfigurationSignature> preprocess_signature(const std::vector<std::string>& argv,
                                                    const std::filesystem::path& file, std::string_view text,
                                                    const CancellationToken* cancel, PreambleCache* preambles,
                                                    ToolkitPchStore* toolkit_pchs) {
  std::shared_ptr<clang::CompilerInvocation> invocation = device_invocation(argv);
  if (!invocation) return Error{"clang could not build a command line to preprocess " + file.string(), {}};
  auto buffer = text_buffer(file, text);
  auto vfs = llvm::vfs::getRealFileSystem();

  // The preamble's share of the signature comes with it (what its build observed).
  ParseOutcome preamble_part;
  PreambleCache::DeferredBuild no_build;  // ReuseOnly never fills it
  std::shared_ptr<const clang::PrecompiledPreamble> preamble =
      preambles ? preambles->prepare(*invocation, file.string(), *buffer, vfs, preamble_part, {}, cancel, no_build,
                                     PreambleUse::ReuseOnly)
                : nullptr;
  if (preamble) buffer.release();  // the preamble remapped the main file to it
  else invocation->getPreprocessorOpts().addRemappedFile(file.string(), buffer.release());
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  std::optional<std::filesystem::path> toolkit_pch = !preamble && toolkit_pchs ? toolkit_pchs->get(argv) : std::nullopt;
  if (toolkit_pch) invocation->getPreprocessorOpts().ImplicitPCHInclude = toolkit_pch->string();

  PchRejectionWatch ignore;
  clang::CompilerInstance ci;
  ci.setInvocation(std::move(invocation));
  ci.createDiagnostics(&ignore, /*ShouldOwnClient=*/false);
  if (!ci.hasDiagnostics()) return Error{"clang could not set up diagnostics", {}};
  ci.getDiagnostics().setFatalsAsError(true);
  ci.createFileManager(vfs);

  ConfigurationSignature signature = preamble_part.signature;
  SignatureAction action(signature, cancel);
  try {
    (void)ci.ExecuteAction(action);
  } catch (const std::exception& e) {
    return Error{std::string("clang failed while preprocessing ") + file.string() + ": " + e.what(), {}};
  }
  if (action.cancelled || (cancel && cancel->is_cancelled())) return Error{"cancelled", {}};
  if (ignore.rejected && toolkit_pch) {
    toolkit_pchs->reject(*toolkit_pch);
    return preprocess_signature(argv, file, text, cancel, preambles, nullptr);
  }
  return signature;
}

void warm_preamble(const std::vector<std::string>& argv, const std::filesystem::path& file, std::string_view text,
                   PreambleCache& preambles, const std::vector<std::string>& watched_macros) {
  std::shared_ptr<clang::CompilerInvocation> invocation = device_invocation(argv);
  if (!invocation) return;
  auto buffer = text_buffer(file, text);
  auto vfs = llvm::vfs::getRealFileSystem();
  ParseOutcome unused;
  PreambleCache::DeferredBuild build;  // starts when this returns
  if (preambles.prepare(*invocation, file.string(), *buffer, vfs, unused, watched_macros, nullptr, build)) {
    // One fits already. prepare() attached it to the invocation, which is dropped here.
  }
}

}  // namespace kl::analyzers
