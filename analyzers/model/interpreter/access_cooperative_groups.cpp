// The cooperative_groups calls that index threads, as forms: a kernel written with
// `warp.thread_rank()` and `warp.meta_group_rank()` (llm.c, CUB-style code) is the same access
// pattern as one written with `threadIdx.x % 32` and `threadIdx.x / 32`, and must be judged the
// same way. CUDA's header bodies are not followed (system headers); these few members are what
// the access model needs from them.
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

#include "analyzers/model/interpreter/access_interpreter_impl.h"

namespace kl::analyzers {

using interpreter::Value;

namespace {

bool in_cooperative_groups(const clang::CXXRecordDecl* record) {
  for (const clang::DeclContext* dc = record ? record->getDeclContext() : nullptr; dc; dc = dc->getParent())
    if (auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc); ns && ns->getName() == "cooperative_groups") return true;
  return false;
}

// The tile size of a `thread_block_tile<N, …>` (or a base that carries N first), else nothing.
std::optional<int64_t> tile_size(const clang::CXXRecordDecl* record) {
  auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
  if (!spec || spec->getTemplateArgs().size() == 0) return std::nullopt;
  const clang::TemplateArgument& first = spec->getTemplateArgs()[0];
  if (first.getKind() != clang::TemplateArgument::Integral) return std::nullopt;
  int64_t n = first.getAsIntegral().getExtValue();
  return n > 0 && n <= 1024 ? std::optional<int64_t>(n) : std::nullopt;
}

}  // namespace

std::optional<Value> AccessInterpreter::Impl::eval_cooperative_groups(const clang::CallExpr* call, Env& env) {
  auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
  if (!method || !method->getIdentifier()) return std::nullopt;
  // The group's own type: most members are static (`block.thread_rank()` is then a plain call
  // through a member expression) and tiles inherit them from size-templated bases.
  const clang::CXXRecordDecl* object = method->getParent();
  if (auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
    object = member->getRecordDecl();
  } else if (auto* callee = llvm::dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreParenImpCasts())) {
    clang::QualType t = callee->getBase()->getType();
    if (callee->isArrow() && t->isPointerType()) t = t->getPointeeType();
    if (const clang::CXXRecordDecl* record = t->getAsCXXRecordDecl()) object = record;
  }
  if (!in_cooperative_groups(object)) return std::nullopt;
  std::string name = method->getName().str();
  std::string group = object->getName().str();

  auto atom = [&](int which, int dim) { return Poly::atom(builtin_atom(which, dim)); };
  auto mul = [](const Poly& a, const Poly& b) { return a.times(b).value_or(Poly()); };
  auto add = [](const Poly& a, const Poly& b) { return a.plus(b).value_or(Poly()); };
  // threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)
  Poly linear = add(atom(0, 0), mul(atom(2, 0), add(atom(0, 1), mul(atom(2, 1), atom(0, 2)))));
  Poly block_threads = mul(atom(2, 0), mul(atom(2, 1), atom(2, 2)));
  auto dim3 = [&](int which) {
    Value v;
    v.kind = Value::Kind::Dim3;
    v.dims = {atom(which, 0), atom(which, 1), atom(which, 2)};
    return v;
  };

  if (group == "thread_block") {
    if (name == "thread_rank") return Value::integer(linear);
    if (name == "size" || name == "num_threads") return Value::integer(block_threads);
    if (name == "group_index") return dim3(1);
    if (name == "thread_index") return dim3(0);
    if (name == "group_dim" || name == "dim_threads") return dim3(2);
    return std::nullopt;
  }
  if (std::optional<int64_t> n = tile_size(object)) {
    Poly tile = Poly::constant(*n);
    if (name == "thread_rank") return remainder(linear, tile, call);
    if (name == "size" || name == "num_threads") return Value::integer(tile);
    if (name == "meta_group_rank") return quotient(linear, tile);
    if (name == "meta_group_size") return quotient(add(block_threads, Poly::constant(*n - 1)), tile);
    return std::nullopt;
  }
  if (group == "grid_group") {
    // One-dimensional grids, the common case: blockIdx.x * blockDim.x + the rank in the block.
    if (name == "thread_rank") return Value::integer(add(mul(atom(1, 0), block_threads), linear));
    if (name == "size" || name == "num_threads") return Value::integer(mul(atom(3, 0), block_threads));
    return std::nullopt;
  }
  (void)env;
  return std::nullopt;
}

}  // namespace kl::analyzers
