#include "analyzers/model/device_reachability.h"

#include <clang/AST/Attr.h>

#include <deque>
#include <unordered_set>

#include "analyzers/frontend/device_parser.h"
#include "analyzers/model/device_body_walker.h"
#include "analyzers/model/device_code.h"

namespace kl::analyzers {
namespace {

const clang::FunctionDecl* canonical(const clang::FunctionDecl* function) {
  return function ? function->getCanonicalDecl() : nullptr;
}

// The functions one body names: the edges of the graph (see the header for what counts).
class ReferenceCollector : public DeviceBodyWalker<ReferenceCollector> {
 public:
  using DeviceBodyWalker::DeviceBodyWalker;

  bool VisitDeclRefExpr(clang::DeclRefExpr* expr) {
    add(llvm::dyn_cast<clang::FunctionDecl>(expr->getDecl()));
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr* expr) {
    add(llvm::dyn_cast<clang::FunctionDecl>(expr->getMemberDecl()));
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* expr) {
    add(expr->getConstructor());
    if (expr->getConstructor()) add_class(expr->getConstructor()->getParent());
    return true;
  }
  bool VisitCXXInheritedCtorInitExpr(clang::CXXInheritedCtorInitExpr* expr) {
    add(expr->getConstructor());
    return true;
  }
  bool VisitCXXNewExpr(clang::CXXNewExpr* expr) {
    add(expr->getOperatorNew());
    add(expr->getOperatorDelete());
    return true;
  }
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr* expr) {
    add(expr->getOperatorDelete());
    if (!expr->getDestroyedType().isNull()) add_class(expr->getDestroyedType()->getAsCXXRecordDecl());
    return true;
  }
  bool VisitCXXBindTemporaryExpr(clang::CXXBindTemporaryExpr* expr) {
    if (expr->getTemporary()) add(expr->getTemporary()->getDestructor());
    return true;
  }
  bool VisitLambdaExpr(clang::LambdaExpr* expr) {
    const clang::CXXMethodDecl* call = expr->getCallOperator();
    add(call);
    if (const clang::FunctionTemplateDecl* generic = call ? call->getDescribedFunctionTemplate() : nullptr)
      for (const clang::FunctionDecl* instance : generic->specializations()) add(instance);
    return true;
  }

  // A destructor also runs its bases' and members' destructors, which its body does not name.
  void add_implicit_destructors(const clang::FunctionDecl& function) {
    auto* destructor = llvm::dyn_cast<clang::CXXDestructorDecl>(&function);
    if (!destructor || !destructor->getParent()->hasDefinition()) return;
    const clang::CXXRecordDecl* record = destructor->getParent();
    for (const clang::CXXBaseSpecifier& base : record->bases())
      if (const clang::CXXRecordDecl* b = base.getType()->getAsCXXRecordDecl()) add_destructor(b);
    for (const clang::FieldDecl* field : record->fields())
      if (!field->getType().isNull())
        if (const clang::CXXRecordDecl* f = field->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
          add_destructor(f);
  }

  std::vector<const clang::FunctionDecl*> take() { return std::move(targets_); }

 private:
  void add(const clang::FunctionDecl* function) {
    if (function) targets_.push_back(canonical(function));
  }
  void add_destructor(const clang::CXXRecordDecl* record) {
    if (record && record->hasDefinition()) add(record->getDestructor());
  }
  // Constructing an object can emit its destructor and its vtable (the virtual functions of the
  // class and of its bases).
  void add_class(const clang::CXXRecordDecl* record) {
    if (!record || !record->hasDefinition()) return;
    add_destructor(record);
    record->forallBases([&](const clang::CXXRecordDecl* base) {
      add_virtual_methods(base);
      return true;
    });
    add_virtual_methods(record);
  }
  void add_virtual_methods(const clang::CXXRecordDecl* record) {
    if (!record->hasDefinition() || !record->isPolymorphic()) return;
    for (const clang::CXXMethodDecl* method : record->methods())
      if (method->isVirtual()) add(method);
  }

  std::vector<const clang::FunctionDecl*> targets_;
};

// Lists the nodes and the roots that are not kernels; walks instantiations and, through
// implicit code, the call operators of lambdas (generic ones with their instantiations).
class FunctionLister : public clang::RecursiveASTVisitor<FunctionLister> {
 public:
  FunctionLister(clang::ASTContext& context, const SourceView& view) : context_(context), view_(view) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (!function->doesThisDeclarationHaveABody() || function->isDependentContext()) return true;
    if (!is_device_function(*function) || !view_.is_user_location(function->getLocation())) return true;
    if (!seen_.insert(canonical(function)).second) return true;
    functions.push_back(function);
    if (auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function)) note_overrides(method, method);
    return true;
  }

  // Functions named by a device variable's initializer are emitted with the variable.
  bool VisitVarDecl(clang::VarDecl* variable) {
    if (!variable->hasGlobalStorage() || !variable->hasInit() || variable->getDeclContext()->isDependentContext()) return true;
    if (!variable->hasAttr<clang::CUDADeviceAttr>() && !variable->hasAttr<clang::CUDAConstantAttr>()) return true;
    if (!view_.is_user_location(variable->getLocation()) || variable->getInit()->isValueDependent()) return true;
    ReferenceCollector references(context_);
    references.TraverseStmt(variable->getInit());
    for (const clang::FunctionDecl* target : references.take()) variable_roots.push_back(target);
    return true;
  }

  std::vector<const clang::FunctionDecl*> functions;
  std::vector<const clang::FunctionDecl*> variable_roots;
  std::unordered_map<const clang::FunctionDecl*, std::vector<const clang::FunctionDecl*>> overriders;

 private:
  void note_overrides(const clang::CXXMethodDecl* overrider, const clang::CXXMethodDecl* method) {
    for (const clang::CXXMethodDecl* overridden : method->overridden_methods()) {
      overriders[canonical(overridden)].push_back(overrider);
      note_overrides(overrider, overridden);
    }
  }

  clang::ASTContext& context_;
  const SourceView& view_;
  std::unordered_set<const clang::FunctionDecl*> seen_;
};

}  // namespace

DeviceReachability::DeviceReachability(clang::ASTContext& context, const SourceView& view) : context_(context) {
  FunctionLister lister(context, view);
  lister.TraverseDecl(context.getTranslationUnitDecl());
  functions_ = std::move(lister.functions);
  variable_roots_ = std::move(lister.variable_roots);
  overriders_ = std::move(lister.overriders);
  for (const clang::FunctionDecl* function : functions_)
    if (is_kernel(*function)) reach_from(function, function);
  for (const clang::FunctionDecl* root : variable_roots_) reach_from(root, nullptr);
}

// Breadth first from `root`, over functions no earlier root reached; each body is walked once.
void DeviceReachability::reach_from(const clang::FunctionDecl* root, const clang::FunctionDecl* kernel) {
  std::deque<const clang::FunctionDecl*> queue;
  auto visit = [&](const clang::FunctionDecl* function) {
    if (reached_.try_emplace(canonical(function), kernel).second) queue.push_back(canonical(function));
  };
  visit(root);
  while (!queue.empty()) {
    const clang::FunctionDecl* next = queue.front();
    queue.pop_front();
    if (auto found = overriders_.find(next); found != overriders_.end())
      for (const clang::FunctionDecl* overrider : found->second) visit(overrider);
    const clang::FunctionDecl* definition = nullptr;
    if (!next->hasBody(definition) || !definition) continue;
    ReferenceCollector references(context_);
    references.walk(*definition);
    references.add_implicit_destructors(*definition);
    for (const clang::FunctionDecl* target : references.take()) visit(target);
  }
}

bool DeviceReachability::is_emitted(const clang::FunctionDecl& function) const {
  return reached_.count(canonical(&function)) > 0;
}

const clang::FunctionDecl* DeviceReachability::reaching_kernel(const clang::FunctionDecl& function) const {
  auto found = reached_.find(canonical(&function));
  if (found == reached_.end() || !found->second || is_kernel(function)) return nullptr;
  return found->second;
}

}  // namespace kl::analyzers
