#include "analyzers/model/barrier_calls.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include <cctype>

namespace kl::analyzers {
namespace {

bool in_namespace(const clang::Decl* decl, llvm::StringRef name) {
  for (const clang::DeclContext* dc = decl ? decl->getDeclContext() : nullptr; dc; dc = dc->getParent())
    if (auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc); ns && ns->getName() == name) return true;
  return false;
}

// The scope a cooperative group's sync has, by the group's type.
BarrierScope group_scope(const clang::CXXRecordDecl* group) {
  if (!group || !group->getIdentifier()) return BarrierScope::None;
  llvm::StringRef name = group->getName();
  if (name == "thread_block" || name == "cluster_group") return BarrierScope::Block;
  if (name == "grid_group" || name == "multi_grid_group") return BarrierScope::Grid;
  if (name.contains("tile") || name == "coalesced_group") return BarrierScope::Warp;
  // A generic group: a block or a tile, which the type does not say.
  if (name == "thread_group") return BarrierScope::Subset;
  return BarrierScope::None;
}

const clang::CXXRecordDecl* record_of(const clang::Expr* e) {
  if (!e) return nullptr;
  clang::QualType t = e->getType();
  if (t.isNull()) return nullptr;
  if (t->isPointerType()) t = t->getPointeeType();
  return t.getNonReferenceType()->getAsCXXRecordDecl();
}

}  // namespace

BarrierCall barrier_call(const clang::CallExpr& call) {
  BarrierCall out;
  const clang::FunctionDecl* callee = call.getDirectCallee();
  if (!callee || !callee->getIdentifier()) return out;
  llvm::StringRef name = callee->getName();
  if (name == "__syncthreads" || name == "__barrier_sync") {
    out.scope = BarrierScope::Block;
    out.spelling = name.str() + "()";
    out.aligned = name == "__syncthreads";
  } else if (name == "__syncthreads_or" || name == "__syncthreads_and" || name == "__syncthreads_count") {
    out.scope = BarrierScope::Block;
    out.spelling = name.str() + "()";
    out.block_result = true;
  } else if (name == "__syncwarp") {
    out.scope = BarrierScope::Warp;
    out.spelling = "__syncwarp()";
  } else if (name == "sync" || name == "barrier_wait") {
    // cooperative_groups: `g.sync()` or `cg::sync(g)`.
    const clang::CXXRecordDecl* group = nullptr;
    if (auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(&call)) group = member->getRecordDecl();
    else if (auto* m = llvm::dyn_cast<clang::MemberExpr>(call.getCallee()->IgnoreParenImpCasts()))
      group = record_of(m->getBase());
    else if (call.getNumArgs() == 1)
      group = record_of(call.getArg(0));
    if (group && in_namespace(group, "cooperative_groups")) {
      out.scope = group_scope(group);
      out.spelling = "sync() on a " + group->getName().str();
      out.aligned = false;  // measured: synccheck accepts a thread block's sync() in divergent code
    }
  } else if (name == "arrive_and_wait") {
    if (auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(&call))
      if (const clang::CXXRecordDecl* r = member->getRecordDecl(); r && r->getIdentifier() && r->getName() == "barrier") {
        out.scope = BarrierScope::Block;
        out.spelling = "barrier.arrive_and_wait()";
        out.aligned = false;
      }
  }
  return out;
}

bool library_block_primitive(const clang::FunctionDecl& callee) {
  auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(&callee);
  const clang::CXXRecordDecl* record = method ? method->getParent() : nullptr;
  if (!record || !record->getIdentifier()) return false;
  return record->getName().starts_with("Block") && (in_namespace(record, "cub") || in_namespace(record, "hipcub"));
}

BarrierScope wider_barrier(BarrierScope a, BarrierScope b) {
  auto rank = [](BarrierScope s) {
    switch (s) {
      case BarrierScope::Block: case BarrierScope::Grid: return 3;
      case BarrierScope::Subset: return 2;
      case BarrierScope::Warp: return 1;
      case BarrierScope::None: return 0;
    }
    return 0;
  };
  return rank(b) > rank(a) ? b : a;
}

bool ptx_barrier_aligned(llvm::StringRef spelling) {
  return spelling.starts_with("bar.") || spelling.contains(".aligned");
}

BarrierScope ptx_barrier(llvm::StringRef text, std::string& spelling) {
  BarrierScope best = BarrierScope::None;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find_first_of(";\n", at);
    if (end == llvm::StringRef::npos) end = text.size();
    llvm::StringRef line = text.slice(at, end).trim();
    at = end + 1;
    BarrierScope scope = BarrierScope::None;
    if (line.starts_with("bar.warp.sync")) {
      scope = BarrierScope::Warp;
    } else if (line.starts_with("bar.sync") || line.starts_with("barrier.sync") || line.starts_with("bar.red") ||
               line.starts_with("barrier.red") || line.starts_with("barrier.cta.sync") ||
               line.starts_with("bar.cta.sync")) {
      // `bar.sync a` waits for the whole block; `bar.sync a, b` only for b threads.
      size_t operands = line.find_first_of(" \t");
      llvm::StringRef rest = operands == llvm::StringRef::npos ? "" : line.substr(operands);
      scope = rest.contains(',') && !line.starts_with("bar.red") && !line.starts_with("barrier.red")
                  ? BarrierScope::Subset
                  : BarrierScope::Block;
    } else if (line.starts_with("bar.arrive") || line.starts_with("barrier.arrive") ||
               line.starts_with("barrier.cta.arrive")) {
      scope = BarrierScope::Subset;
    }
    if (scope == BarrierScope::None || wider_barrier(best, scope) == best) continue;
    best = scope;
    spelling = line.str();
  }
  return best;
}

}  // namespace kl::analyzers
