#include "analyzers/model/shared_rows.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/TypeLoc.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <set>

#include "analyzers/frontend/device_parser.h"

namespace kl::analyzers {
namespace {

// Every reference to `var` in a body, and those that are the root of a full subscript chain.
class ReferenceCensus : public clang::RecursiveASTVisitor<ReferenceCensus> {
 public:
  ReferenceCensus(const clang::VarDecl& var, unsigned dims) : var_(var), dims_(dims) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (ref->getDecl() == &var_) all.insert(ref);
    return true;
  }

  // `tile[r][c]`: the outermost subscript of a chain as deep as the array has dimensions.
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* sub) {
    unsigned levels = 0;
    const clang::Expr* e = sub;
    while (auto* s = llvm::dyn_cast<clang::ArraySubscriptExpr>(e->IgnoreParenImpCasts())) {
      ++levels;
      e = s->getBase();
    }
    auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    if (ref && ref->getDecl() == &var_ && levels == dims_) full.insert(ref);
    return true;
  }

  std::set<const clang::DeclRefExpr*> all, full;

 private:
  const clang::VarDecl& var_;
  unsigned dims_;
};

}  // namespace

std::optional<SharedRow> shared_row_of(const clang::VarDecl& var, clang::ASTContext& ctx, const SourceView& view) {
  if (!var.hasAttr<clang::CUDASharedAttr>() || var.hasExternalStorage()) return std::nullopt;
  auto* function = llvm::dyn_cast<clang::FunctionDecl>(var.getDeclContext());
  const clang::TypeSourceInfo* written = var.getTypeSourceInfo();
  if (!function || !function->getBody() || !written) return std::nullopt;

  // The innermost dimension as written, and how many there are.
  unsigned dims = 0;
  clang::ArrayTypeLoc innermost;
  for (clang::TypeLoc loc = written->getTypeLoc(); !loc.isNull();) {
    auto array = loc.getAs<clang::ArrayTypeLoc>();
    if (!array) break;
    innermost = array;
    ++dims;
    loc = array.getElementLoc();
  }
  // The type of one row (`float[32]`): the innermost array of the chain, all of constant size.
  const clang::ConstantArrayType* row_type = nullptr;
  for (const clang::ArrayType* array = ctx.getAsArrayType(var.getType()); array;
       array = ctx.getAsArrayType(array->getElementType())) {
    row_type = llvm::dyn_cast<clang::ConstantArrayType>(array);
    if (!row_type) return std::nullopt;
  }
  if (dims < 2 || !innermost || !innermost.getSizeExpr() || !row_type || row_type->isDependentType())
    return std::nullopt;

  ReferenceCensus census(var, dims);
  census.TraverseStmt(function->getBody());
  if (census.all.empty() || census.all != census.full) return std::nullopt;

  const clang::SourceManager& sources = ctx.getSourceManager();
  clang::SourceRange range = innermost.getSizeExpr()->getSourceRange();
  clang::CharSourceRange tokens = clang::CharSourceRange::getTokenRange(
      sources.getExpansionRange(range.getBegin()).getBegin(), sources.getExpansionRange(range.getEnd()).getEnd());
  std::string text = clang::Lexer::getSourceText(tokens, sources, ctx.getLangOpts()).str();
  if (text.empty() || !view.is_user_location(range.getBegin())) return std::nullopt;
  SharedRow row;
  row.size = view.location_of(range);
  row.size_text = text;
  row.bytes = static_cast<uint64_t>(ctx.getTypeSizeInChars(row_type).getQuantity());
  return row;
}

}  // namespace kl::analyzers
