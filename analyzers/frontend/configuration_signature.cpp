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
#include "support/source_text.h"

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

ConfigurationEvent preamble_event(const ConfigurationSignature& preamble_signature) {
  ConfigurationEvent event;
  event.in_main_file = true;
  event.hash = preamble_signature.sum ^ (preamble_signature.second_sum * 31) ^ preamble_signature.events;
  return event;
}

namespace {

// Whether `text`, a skipped branch with the directives that open and close it, holds nothing but
// preprocessor conditionals and macro definitions (#define, continued lines included, #undef),
// blank lines and comments.
bool only_macro_definitions(std::string_view text) {
  static constexpr std::string_view kAllowed[] = {"define", "undef", "if", "ifdef", "ifndef", "elif",
                                                  "elifdef", "elifndef", "else", "endif"};
  const std::string code = blank_comments_and_literals(text);  // a comment reads as blanks
  std::string_view rest = code;
  bool continued = false;
  while (!rest.empty()) {
    size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    bool was_continued = continued;
    continued = !line.empty() && line.back() == '\\';
    if (was_continued) continue;  // the rest of a #define on this line
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    if (line.front() != '#') return false;
    line.remove_prefix(1);
    size_t name_start = line.find_first_not_of(" \t");
    if (name_start == std::string_view::npos) continue;  // a null directive
    size_t name_end = line.find_first_not_of("abcdefghijklmnopqrstuvwxyz", name_start);
    std::string_view name = line.substr(name_start, name_end == std::string_view::npos ? line.size() - name_start
                                                                                      : name_end - name_start);
    bool allowed = false;
    for (std::string_view word : kAllowed) allowed = allowed || name == word;
    if (!allowed) return false;
  }
  return true;
}

class SignatureRecorder : public clang::PPCallbacks {
 public:
  SignatureRecorder(const clang::Preprocessor& preprocessor, ConfigurationSignature& signature,
                    MacroNames* macro_names, ConfigurationEvents* events)
      : preprocessor_(preprocessor),
        sources_(preprocessor.getSourceManager()),
        view_(sources_, {}),
        signature_(signature),
        macro_names_(macro_names),
        events_(events) {}

  void MacroUndefined(const clang::Token& name, const clang::MacroDefinition&, const clang::MacroDirective*) override {
    if (macro_names_ && name.getIdentifierInfo()) macro_names_->insert(name.getIdentifierInfo()->getName().str());
  }

  void EndOfMainFile() override {
    // ~6,000 names from CUDA's headers, ~13 ms on a 2-core machine: asked for only when the
    // configurations are worked out afresh (configuration_memory.h).
    if (!macro_names_) return;
    for (const auto& [identifier, state] : preprocessor_.macros(/*IncludeExternalMacros=*/true))
      macro_names_->insert(identifier->getName().str());
  }

  bool FileNotFound(llvm::StringRef) override { return true; }  // skip it, as the parse does

  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    // The main file is always entered, and a preamble's build enters it too: only headers count.
    if (reason != EnterFile || sources_.getFileID(loc) == sources_.getMainFileID()) return;
    if (auto file = user_file(loc)) record("enter\n" + *file, "enter", loc, *file, 0, 0);
  }

  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    auto file = user_file(range.getBegin());
    if (!file) return;
    unsigned begin = sources_.getFileOffset(range.getBegin());
    unsigned end = sources_.getFileOffset(range.getEnd());
    // A branch that only defines macros changes the tokens only where they expand, and those
    // expansions are events of their own (MacroExpands): `#if __CUDA_ARCH__ >= 900 #define
    // BLOCKS 2 #else #define BLOCKS 1 #endif` splits no configuration unless BLOCKS is used.
    bool invalid = false;
    const char* data = sources_.getCharacterData(range.getBegin(), &invalid);
    if (!invalid && end >= begin && only_macro_definitions(std::string_view(data, end - begin))) return;
    record("skip\n" + *file + "\n" + std::to_string(begin) + "-" + std::to_string(end), "skip",
           range.getBegin(), *file, begin, end);
  }

  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& definition, clang::SourceRange range,
                    const clang::MacroArgs*) override {
    const clang::MacroInfo* info = definition.getMacroInfo();
    const clang::IdentifierInfo* id = name.getIdentifierInfo();
    if (!info || !id || preprocessor_.isParsingIfOrElifDirective()) return;
    clang::SourceLocation at = sources_.getExpansionLoc(range.getBegin());
    auto file = user_file(at);
    if (!file) return;
    const unsigned offset = sources_.getFileOffset(at);
    const std::string macro = id->getName().str() + "\n";
    std::string event = "macro\n" + *file + "\n" + std::to_string(offset) + "\n" + macro;
    // A macro the user defined expands to the user's own text: which definition is enough
    // (the branch that chose it may not be fingerprinted, see SourceRangeSkipped).
    clang::SourceLocation defined_at = info->getDefinitionLoc();
    if (auto definition_file = user_file(defined_at)) {
      const unsigned defined_offset = sources_.getFileOffset(defined_at);
      const bool in_main = in_main_file(defined_at);
      std::string where = *definition_file + ":" + std::to_string(defined_offset);
      record(event + where, "macro\n" + macro + (in_main ? *definition_file : where), at, *file, offset,
             offset + 1, in_main ? defined_offset : ConfigurationEvent::kNone);
      return;
    }
    std::string tokens;
    for (const clang::Token& token : info->tokens()) {
      tokens += clang::Lexer::getSpelling(token, sources_, clang::LangOptions());
      tokens += ' ';
    }
    record(event + tokens, "macro\n" + macro + tokens, at, *file, offset, offset + 1);
  }

 private:
  // Adds `event` to the signature and, with its place, `what` (the event without its offsets) to
  // the events.
  void record(const std::string& event, const std::string& what, clang::SourceLocation at,
              const std::string& file, unsigned begin, unsigned end,
              unsigned definition = ConfigurationEvent::kNone) {
    signature_.add_event(event);
    if (!events_) return;
    events_->push_back(
        {in_main_file(at), llvm::xxh3_64bits(file), begin, end, definition, llvm::xxh3_64bits(what)});
  }

  bool in_main_file(clang::SourceLocation loc) const {
    return sources_.getFileID(sources_.getExpansionLoc(loc)) == sources_.getMainFileID();
  }

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
  MacroNames* macro_names_;
  ConfigurationEvents* events_;
};

// Lexes the whole translation unit, as a parse would, with the recorder attached. An AST
// action that never parses: as one, it loads a precompiled preamble the invocation names (a
// preprocessor-only action would include the preamble's source text instead).
class SignatureAction : public clang::ASTFrontendAction {
 public:
  SignatureAction(ConfigurationSignature& signature, const CancellationToken* cancel, MacroNames* macro_names,
                  ConfigurationEvents* events)
      : signature_(signature), cancel_(cancel), macro_names_(macro_names), events_(events) {}
  bool cancelled = false;

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<clang::ASTConsumer>();
  }
  void ExecuteAction() override {
    clang::Preprocessor& preprocessor = getCompilerInstance().getPreprocessor();
    preprocessor.addPPCallbacks(make_signature_recorder(preprocessor, signature_, macro_names_, events_));
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
  MacroNames* macro_names_;
  ConfigurationEvents* events_;
};

}  // namespace

std::unique_ptr<clang::PPCallbacks> make_signature_recorder(const clang::Preprocessor& preprocessor,
                                                            ConfigurationSignature& signature,
                                                            MacroNames* macro_names,
                                                            ConfigurationEvents* events) {
  return std::make_unique<SignatureRecorder>(preprocessor, signature, macro_names, events);
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
                                                    ToolkitPchStore* toolkit_pchs, MacroNames* macro_names,
                                                    ConfigurationEvents* events) {
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
  std::optional<std::filesystem::path> toolkit_pch = !preamble && toolkit_pchs ? toolkit_pchs->get(argv, text) : std::nullopt;
  if (toolkit_pch) invocation->getPreprocessorOpts().ImplicitPCHInclude = toolkit_pch->string();

  PchRejectionWatch ignore;
  clang::CompilerInstance ci;
  ci.setInvocation(std::move(invocation));
  ci.createDiagnostics(&ignore, /*ShouldOwnClient=*/false);
  if (!ci.hasDiagnostics()) return Error{"clang could not set up diagnostics", {}};
  ci.getDiagnostics().setFatalsAsError(true);
  ci.createFileManager(vfs);

  ConfigurationSignature signature = preamble_part.signature;
  MacroNames names;
  ConfigurationEvents recorded = preamble_part.events;  // the preamble's, as one event
  SignatureAction action(signature, cancel, macro_names ? &names : nullptr, events ? &recorded : nullptr);
  try {
    (void)ci.ExecuteAction(action);
  } catch (const std::exception& e) {
    return Error{std::string("clang failed while preprocessing ") + file.string() + ": " + e.what(), {}};
  }
  if (action.cancelled || (cancel && cancel->is_cancelled())) return Error{"cancelled", {}};
  if (ignore.rejected && (toolkit_pch || preamble)) {
    // A preamble fails to load when the toolkit PCH it was built on has been replaced since.
    if (toolkit_pch) toolkit_pchs->reject(*toolkit_pch);
    if (preamble) preambles->forget(file.string());
    return preprocess_signature(argv, file, text, cancel, preamble ? nullptr : preambles, nullptr,
                                macro_names, events);
  }
  if (macro_names) macro_names->insert(names.begin(), names.end());
  if (events) *events = std::move(recorded);
  return signature;
}

void warm_preamble(const std::vector<std::string>& argv, const std::filesystem::path& file, std::string_view text,
                   PreambleCache& preambles, const std::vector<std::string>& watched_macros,
                   ToolkitPchStore* toolkit_pchs) {
  std::shared_ptr<clang::CompilerInvocation> invocation = device_invocation(argv);
  if (!invocation) return;
  auto buffer = text_buffer(file, text);
  auto vfs = llvm::vfs::getRealFileSystem();
  ParseOutcome unused;
  PreambleCache::DeferredBuild build;  // starts when this returns
  if (preambles.prepare(*invocation, file.string(), *buffer, vfs, unused, watched_macros, nullptr, build,
                       PreambleUse::ReuseOrBuild, toolkit_pch_source(toolkit_pchs, argv, text))) {
    // One fits already. prepare() attached it to the invocation, which is dropped here.
  }
}

}  // namespace kl::analyzers
