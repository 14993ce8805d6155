#include "analyzers/frontend/system_header_directives.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/PreprocessorOptions.h>

#include <map>
#include <memory>
#include <optional>

namespace kl::analyzers {

namespace {

using clang::dependency_directives_scan::Directive;
using clang::dependency_directives_scan::Token;

// The scanned directives of each system header, kept while the lexer reads them.
struct ScannedHeaders {
  struct Scan {
    llvm::SmallVector<Token, 0> tokens;
    llvm::SmallVector<Directive, 0> directives;
    bool usable = false;  // a system header the scanner understood
  };
  const clang::SourceManager* sources = nullptr;
  std::map<const clang::FileEntry*, std::unique_ptr<Scan>> scans;

  std::optional<llvm::ArrayRef<Directive>> directives_for(clang::FileEntryRef file) {
    // Decided once per file: translateFile() walks the source manager's entries.
    auto& scan = scans[&file.getFileEntry()];
    if (!scan) {
      scan = std::make_unique<Scan>();
      clang::FileID id = sources->translateFile(file);
      if (id.isValid() && sources->isInSystemHeader(sources->getLocForStartOfFile(id))) {
        std::optional<llvm::MemoryBufferRef> buffer = sources->getBufferOrNone(id);
        // The scanner returns true when it could not make sense of the file: lex that one whole.
        scan->usable = buffer && !clang::scanSourceForDependencyDirectives(buffer->getBuffer(), scan->tokens,
                                                                           scan->directives);
      }
    }
    if (!scan->usable) return std::nullopt;
    return llvm::ArrayRef<Directive>(scan->directives);
  }
};

}  // namespace

void install_system_header_directives(clang::CompilerInstance& compiler) {
  auto scanned = std::make_shared<ScannedHeaders>();
  scanned->sources = &compiler.getSourceManager();
  compiler.getPreprocessorOpts().DependencyDirectivesForFile = [scanned](clang::FileEntryRef file) {
    return scanned->directives_for(file);
  };
}

void uninstall_system_header_directives(clang::CompilerInstance& compiler) {
  compiler.getPreprocessorOpts().DependencyDirectivesForFile = nullptr;
}

}  // namespace kl::analyzers
