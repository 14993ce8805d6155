#pragma once
// The statements of one function body that the compiler generates code for, as a base for
// visitors that look at bodies one function at a time (the feature collector, the call graph of
// device_reachability).
//
// DeviceBodyWalker<Derived> is a RecursiveASTVisitor (CRTP) that, from walk(function):
//  - visits the function's body and, for a constructor, its member and base initializers;
//  - visits the default arguments and default member initializers a call or constructor uses
//    (they are compiled where they are used);
//  - skips the discarded branch of an `if constexpr` whose condition is known (in templates,
//    only instantiations know it);
//  - does not enter lambda bodies or the member functions of local classes: those are functions
//    of their own, reached when something calls them (DeviceReachability lists them).
// Derived classes add Visit* methods as with any RecursiveASTVisitor. Header-only because it is
// a template; only analyzers/model includes it.
#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>

namespace kl::analyzers {

template <class Derived>
class DeviceBodyWalker : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

 public:
  explicit DeviceBodyWalker(clang::ASTContext& context) : context_(context) {}

  void walk(const clang::FunctionDecl& function) {
    auto* mutable_function = const_cast<clang::FunctionDecl*>(&function);
    if (auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(mutable_function)) {
      for (clang::CXXCtorInitializer* init : constructor->inits())
        if (init->getInit()) this->getDerived().TraverseStmt(init->getInit());
    }
    if (clang::Stmt* body = mutable_function->getBody()) this->getDerived().TraverseStmt(body);
  }

  bool shouldVisitLambdaBody() const { return false; }

  // Local classes: their member functions are functions of their own.
  bool TraverseCXXRecordDecl(clang::CXXRecordDecl*) { return true; }

  bool TraverseCXXDefaultArgExpr(clang::CXXDefaultArgExpr* expr) {
    return !expr->getExpr() || this->getDerived().TraverseStmt(expr->getExpr());
  }
  bool TraverseCXXDefaultInitExpr(clang::CXXDefaultInitExpr* expr) {
    return !expr->getExpr() || this->getDerived().TraverseStmt(expr->getExpr());
  }

  // A discarded `if constexpr` branch is never compiled.
  bool TraverseIfStmt(clang::IfStmt* statement) {
    if (statement->isConstexpr() && !statement->getCond()->isValueDependent()) {
      if (auto taken = statement->getNondiscardedCase(context_)) {
        if (statement->getInit()) this->getDerived().TraverseStmt(statement->getInit());
        if (*taken) this->getDerived().TraverseStmt(*taken);
        return true;
      }
    }
    return Base::TraverseIfStmt(statement);
  }

 protected:
  clang::ASTContext& context_;
};

}  // namespace kl::analyzers
