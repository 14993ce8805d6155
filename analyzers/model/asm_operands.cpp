#include "analyzers/model/asm_operands.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

namespace kl::analyzers {

const clang::Expr* asm_operand(const clang::GCCAsmStmt& statement, int n) {
  if (n < 0) return nullptr;
  auto index = static_cast<unsigned>(n);
  if (index < statement.getNumOutputs()) return statement.getOutputExpr(index);
  index -= statement.getNumOutputs();
  return index < statement.getNumInputs() ? statement.getInputExpr(index) : nullptr;
}

int address_operand_number(const clang::GCCAsmStmt& statement, const PtxMemoryAccess& access) {
  return access.operand_name.empty() ? access.operand : statement.getNamedOperand(access.operand_name);
}

const clang::Expr* pointer_under_casts(const clang::Expr* e) {
  for (int i = 0; e && i < 16; ++i) {
    const clang::Expr* inner = e->IgnoreParens();
    if (auto* cast = llvm::dyn_cast<clang::CastExpr>(inner)) {
      const clang::Expr* sub = cast->getSubExpr();
      if (sub && !sub->getType().isNull() && (sub->getType()->isPointerType() || sub->getType()->isIntegerType())) {
        e = sub;
        continue;
      }
      return inner;
    }
    auto* call = llvm::dyn_cast<clang::CallExpr>(inner);
    const clang::FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    bool conversion = callee && callee->getIdentifier() && call->getNumArgs() == 1 &&
                      (callee->getName() == "__cvta_generic_to_global" || callee->getName() == "cvta_generic_to_global");
    if (!conversion) return inner;
    e = call->getArg(0);
  }
  return e;
}

}  // namespace kl::analyzers
