#include "analyzers/model/device_code.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/Support/raw_ostream.h>

namespace kl::analyzers {

bool is_kernel(const clang::FunctionDecl& function) { return function.hasAttr<clang::CUDAGlobalAttr>(); }

bool is_device_function(const clang::FunctionDecl& function) {
  return function.hasAttr<clang::CUDAGlobalAttr>() || function.hasAttr<clang::CUDADeviceAttr>();
}

std::string qualified_name(const clang::NamedDecl& decl) {
  std::string out;
  llvm::raw_string_ostream stream(out);
  clang::PrintingPolicy policy(decl.getASTContext().getLangOpts());
  policy.SuppressInlineNamespace = true;
  policy.SuppressUnwrittenScope = true;
  decl.printQualifiedName(stream, policy);
  stream.flush();
  return out;
}

std::optional<int64_t> constant_value(const clang::Expr* expr, const clang::ASTContext& context) {
  if (!expr || expr->isValueDependent() || expr->isTypeDependent() || expr->containsErrors())
    return std::nullopt;
  clang::Expr::EvalResult result;
  if (!expr->EvaluateAsInt(result, context)) return std::nullopt;
  return result.Val.getInt().getExtValue();
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
