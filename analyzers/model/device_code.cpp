#include "analyzers/model/device_code.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/Support/raw_ostream.h>

#include <vector>

namespace kl::analyzers {

bool is_kernel(const clang::FunctionDecl& function) { return function.hasAttr<clang::CUDAGlobalAttr>(); }

bool is_device_function(const clang::FunctionDecl& function) {
  return function.hasAttr<clang::CUDAGlobalAttr>() || function.hasAttr<clang::CUDADeviceAttr>();
}

std::string qualified_name(const clang::NamedDecl& decl) {
  // Built by hand rather than printQualifiedName: headers version their APIs in namespaces that
  // are not inline (cooperative_groups::__v1, pulled in with `using namespace`), and users never
  // write those. Inline, anonymous and reserved (`__`) namespaces are left out.
  std::vector<std::string> parts = {decl.getNameAsString()};
  for (const clang::DeclContext* context = decl.getDeclContext(); context; context = context->getParent()) {
    if (auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(context)) {
      if (ns->isInline() || ns->isAnonymousNamespace() || ns->getName().starts_with("__")) continue;
      parts.push_back(ns->getNameAsString());
    } else if (auto* record = llvm::dyn_cast<clang::RecordDecl>(context)) {
      parts.push_back(record->getNameAsString());
    }
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!out.empty()) out += "::";
    out += *it;
  }
  return out;
}

std::optional<int64_t> constant_value(const clang::Expr* expr, const clang::ASTContext& context) {
  if (!expr || expr->isValueDependent() || expr->isTypeDependent() || expr->containsErrors())
    return std::nullopt;
  clang::Expr::EvalResult result;
  if (!expr->EvaluateAsInt(result, context)) return std::nullopt;
  return result.Val.getInt().getExtValue();
}

std::optional<int64_t> integral_constant(const clang::VarDecl& var, const clang::ASTContext& context) {
  clang::QualType type = var.getType();
  if (type.isNull() || type->isDependentType() || !type->isIntegralOrEnumerationType()) return std::nullopt;
  if (!var.isConstexpr() && !type.isConstQualified()) return std::nullopt;
  // A parameter is const for its function, not a constant.
  if (llvm::isa<clang::ParmVarDecl>(var)) return std::nullopt;
  return constant_value(var.getAnyInitializer(), context);
}

const clang::Expr* strip(const clang::Expr* expr) {
  while (expr) {
    const clang::Expr* next = expr->IgnoreParenImpCasts();
    if (auto* temp = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(next)) next = temp->getSubExpr();
    if (auto* bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(next)) next = bind->getSubExpr();
    if (auto* cast = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(next)) next = cast->getSubExpr();
    if (next == expr) return expr;
    expr = next;
  }
  return expr;
}

}  // namespace kl::analyzers
