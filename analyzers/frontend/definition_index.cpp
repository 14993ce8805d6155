#include "analyzers/frontend/definition_index.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclFriend.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "analyzers/frontend/device_parser.h"

namespace kl::analyzers {

namespace {

void add_identifier_name(const clang::NamedDecl& decl, IdentifierSet& names) {
  if (decl.getDeclName().isIdentifier() && decl.getIdentifier()) names.insert(decl.getName().str());
}

// The class's name and what its members are called by: methods, nested types, enumerators.
void add_record_names(const clang::CXXRecordDecl& record, IdentifierSet& names) {
  add_identifier_name(record, names);
  for (const clang::Decl* member : record.decls()) {
    if (const auto* named = llvm::dyn_cast<clang::NamedDecl>(member)) {
      if (llvm::isa<clang::FieldDecl>(named)) continue;  // `p.x` names a field of any class
      add_identifier_name(*named, names);
    }
    if (const auto* nested = llvm::dyn_cast<clang::CXXRecordDecl>(member)) add_record_names(*nested, names);
    if (const auto* nested = llvm::dyn_cast<clang::ClassTemplateDecl>(member))
      add_record_names(*nested->getTemplatedDecl(), names);
    if (const auto* inner = llvm::dyn_cast<clang::EnumDecl>(member))
      for (const clang::EnumConstantDecl* constant : inner->enumerators())
        add_identifier_name(*constant, names);
  }
}

// Calls `each` for every function definition `decl` holds, itself included, not looking inside
// function bodies (a local class is its function's).
template <class Each>
void for_each_function_definition(const clang::Decl* decl, const Each& each) {
  if (const auto* t = llvm::dyn_cast<clang::TemplateDecl>(decl)) decl = t->getTemplatedDecl();
  if (!decl) return;
  if (const auto* friend_decl = llvm::dyn_cast<clang::FriendDecl>(decl)) {
    if (const clang::NamedDecl* named = friend_decl->getFriendDecl())
      for_each_function_definition(named, each);
    return;
  }
  if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl)) {
    if (function->doesThisDeclarationHaveABody()) each(*function);
    return;
  }
  if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl))
    for (const clang::Decl* member : record->decls()) for_each_function_definition(member, each);
}

bool is_instantiation(const clang::Decl& decl) {
  if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(&decl))
    return function->isTemplateInstantiation();
  if (const auto* record = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(&decl))
    return clang::isTemplateInstantiation(record->getTemplateSpecializationKind());
  if (const auto* variable = llvm::dyn_cast<clang::VarDecl>(&decl))
    return clang::isTemplateInstantiation(variable->getTemplateSpecializationKind());
  return false;
}

class Indexer {
 public:
  Indexer(clang::ASTContext& context, const SourceView& view)
      : sources_(context.getSourceManager()),
        view_(view),
        lang_(context.getLangOpts()),
        text_(sources_.getBufferData(sources_.getMainFileID()).str()) {
    index_.macros = macro_identifiers_in(text_);
  }

  void add_context(const clang::DeclContext& context) {
    for (const clang::Decl* decl : context.decls()) add(*decl);
  }

  void add(const clang::Decl& decl) {
    if (llvm::isa<clang::NamespaceDecl>(decl) || llvm::isa<clang::LinkageSpecDecl>(decl)) {
      add_context(*llvm::cast<clang::DeclContext>(&decl));
      return;
    }
    if (decl.isImplicit() || is_instantiation(decl)) return;  // an instantiation is its pattern's text
    clang::SourceLocation begin = sources_.getExpansionLoc(decl.getBeginLoc());
    clang::SourceLocation last = sources_.getExpansionRange(decl.getEndLoc()).getEnd();
    if (begin.isInvalid() || last.isInvalid() || !sources_.isWrittenInMainFile(begin) ||
        sources_.getFileID(last) != sources_.getMainFileID())
      return;
    Definition definition;
    definition.begin = sources_.getFileOffset(begin);
    definition.end = sources_.getFileOffset(last) + clang::Lexer::MeasureTokenLength(last, sources_, lang_);
    if (definition.end <= definition.begin || definition.end > text_.size()) return;
    definition.range = view_.location_of(decl.getSourceRange()).range;
    add_names(decl, definition);
    definition.mentions =
        identifiers_in(std::string_view(text_).substr(definition.begin, definition.end - definition.begin));
    add_macro_identifiers(definition.mentions, index_.macros);
    for_each_function_definition(&decl, [&](const clang::FunctionDecl& function) {
      clang::SourceLocation name = sources_.getExpansionLoc(function.getLocation());
      if (sources_.isWrittenInMainFile(name)) definition.bodies.push_back(sources_.getFileOffset(name));
      add_sides(function, definition);
    });
    set_body_begin(decl, definition);
    index_.definitions.push_back(std::move(definition));
  }

  DefinitionIndex take() { return std::move(index_); }

 private:
  static void add_sides(const clang::FunctionDecl& function, Definition& definition) {
    const bool kernel = function.hasAttr<clang::CUDAGlobalAttr>();
    const bool device = function.hasAttr<clang::CUDADeviceAttr>() || function.isConstexpr();
    const bool host =
        function.hasAttr<clang::CUDAHostAttr>() || (!kernel && !function.hasAttr<clang::CUDADeviceAttr>());
    definition.kernel = definition.kernel || kernel;
    definition.device = definition.device || device;
    definition.host = definition.host || host;
  }

  void set_body_begin(const clang::Decl& decl, Definition& definition) {
    const clang::FunctionDecl* function = decl.getAsFunction();
    if (!function || llvm::isa<clang::CXXRecordDecl>(decl) || !function->doesThisDeclarationHaveABody() ||
        function->isConstexpr() || function->getReturnType()->getContainedDeducedType() ||
        !function->getBody())
      return;
    clang::SourceLocation body = sources_.getExpansionLoc(function->getBody()->getBeginLoc());
    if (sources_.isWrittenInMainFile(body)) definition.body_begin = sources_.getFileOffset(body);
  }

  void add_names(const clang::Decl& decl, Definition& definition) {
    const clang::Decl* inner = &decl;
    if (const auto* t = llvm::dyn_cast<clang::TemplateDecl>(inner)) {
      add_identifier_name(*t, definition.names);
      inner = t->getTemplatedDecl();
      if (!inner) return;
    }
    if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(inner)) {
      add_identifier_name(*function, definition.names);
      if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function)) {
        add_identifier_name(*method->getParent(), definition.names);
      } else if (!function->getDeclName().isIdentifier()) {
        // A free operator: named by what its declarator names (its operands' types).
        clang::SourceLocation from = sources_.getExpansionLoc(function->getBeginLoc());
        clang::SourceLocation to = sources_.getExpansionLoc(function->getLocation());
        if (sources_.isWrittenInMainFile(from) && sources_.isWrittenInMainFile(to)) {
          unsigned a = sources_.getFileOffset(from);
          unsigned b =
              function->hasBody()
                  ? sources_.getFileOffset(sources_.getExpansionLoc(function->getBody()->getBeginLoc()))
                  : definition.end;
          if (a < b && b <= text_.size()) {
            IdentifierSet declarator = identifiers_in(std::string_view(text_).substr(a, b - a));
            definition.names.insert(declarator.begin(), declarator.end());
          }
        }
      }
      return;
    }
    if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(inner)) {
      add_record_names(*record, definition.names);
      return;
    }
    if (const auto* enumeration = llvm::dyn_cast<clang::EnumDecl>(inner)) {
      add_identifier_name(*enumeration, definition.names);
      for (const clang::EnumConstantDecl* constant : enumeration->enumerators())
        add_identifier_name(*constant, definition.names);
      return;
    }
    if (const auto* named = llvm::dyn_cast<clang::NamedDecl>(inner))
      add_identifier_name(*named, definition.names);
  }

  const clang::SourceManager& sources_;
  const SourceView& view_;
  const clang::LangOptions& lang_;
  std::string text_;
  DefinitionIndex index_;
};

}  // namespace

DefinitionIndex index_definitions(clang::ASTContext& context, const SourceView& view) {
  Indexer indexer(context, view);
  for (clang::Decl* decl : context.getTraversalScope()) indexer.add(*decl);
  return indexer.take();
}

}  // namespace kl::analyzers
