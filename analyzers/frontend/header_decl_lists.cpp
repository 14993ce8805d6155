#include "analyzers/frontend/header_decl_lists.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaConsumer.h>

#include <vector>

namespace kl::analyzers {

namespace {

using DeferredDiagnosticDecls = llvm::SmallSetVector<clang::Decl*, 4>;

// Sema keeps the deferred-diagnostic list private (only its writer reads it). An explicit
// instantiation may name a private member ([temp.spec.general]), so this one hands out a
// reference to it through a friend function; nothing else of Sema is reached this way.
DeferredDiagnosticDecls& deferred_diagnostic_decls(clang::Sema& sema);

template <DeferredDiagnosticDecls clang::Sema::*Member>
struct DeferredDiagnosticAccess {
  friend DeferredDiagnosticDecls& deferred_diagnostic_decls(clang::Sema& sema) { return sema.*Member; }
};
template struct DeferredDiagnosticAccess<&clang::Sema::DeclsToCheckForDeferredDiags>;

bool in_system_header(const clang::SourceManager& sources, const clang::Decl* decl) {
  return decl && sources.isInSystemHeader(sources.getExpansionLoc(decl->getLocation()));
}

class HeaderListTrimmer : public clang::SemaConsumer {
 public:
  void InitializeSema(clang::Sema& sema) override { sema_ = &sema; }
  void ForgetSema() override { sema_ = nullptr; }
  void HandleTranslationUnit(clang::ASTContext&) override {
    if (sema_) drop_system_header_entries(*sema_);
  }

 private:
  clang::Sema* sema_ = nullptr;
};

class PreambleListTrimmer : public clang::PPCallbacks {
 public:
  explicit PreambleListTrimmer(clang::CompilerInstance& compiler) : compiler_(compiler) {}
  void EndOfMainFile() override {
    if (compiler_.hasSema()) drop_system_header_entries(compiler_.getSema());
  }

 private:
  clang::CompilerInstance& compiler_;
};

}  // namespace

void drop_system_header_entries(clang::Sema& sema) {
  const clang::SourceManager& sources = sema.getSourceManager();
  DeferredDiagnosticDecls& deferred = deferred_diagnostic_decls(sema);
  deferred.remove_if([&](clang::Decl* decl) { return in_system_header(sources, decl); });

  // Only this compilation's own entries: asking for the loaded ones would read them.
  auto& unused = sema.UnusedFileScopedDecls;
  std::vector<const clang::DeclaratorDecl*> kept;
  for (auto it = unused.begin(nullptr, /*LocalOnly=*/true); it != unused.end(); ++it)
    if (!in_system_header(sources, *it)) kept.push_back(*it);
  unused.erase(unused.begin(nullptr, /*LocalOnly=*/true), unused.end());
  for (const clang::DeclaratorDecl* decl : kept) unused.push_back(decl);
}

std::unique_ptr<clang::ASTConsumer> make_header_list_trimmer() { return std::make_unique<HeaderListTrimmer>(); }

std::unique_ptr<clang::PPCallbacks> make_preamble_list_trimmer(clang::CompilerInstance& compiler) {
  return std::make_unique<PreambleListTrimmer>(compiler);
}

}  // namespace kl::analyzers
